import { expect, type Page } from "@playwright/test";
import { Authenticator } from "./authenticator";
import { checkPage, signInThroughForm } from "./fixtures";

/** The recovery codes on the page, as shown once after turning two-step verification on or regenerating. */
export async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByTestId("recovery-codes");
  await expect(list.getByRole("listitem")).toHaveCount(10);
  return (await list.getByRole("listitem").allInnerTexts()).map((code) => code.trim());
}

/**
 * Turns on an authenticator app from the account page, as a person does: start,
 * read the key, confirm with the app's code; returns the app and the recovery codes.
 * `screenshots` names the page states for checkPage (none when omitted).
 */
export async function turnOnTwoStep(page: Page, screenshots?: { prefix: string; axe?: boolean }): Promise<{ app: Authenticator; codes: string[] }> {
  const section = page.getByRole("region", { name: "Two-step verification" });
  await section.getByRole("button", { name: "Turn on two-step verification" }).click();
  const app = await Authenticator.fromSetupPage(page);
  await expect(section.getByRole("img", { name: /QR code/ })).toBeVisible();
  if (screenshots) await checkPage(page, `${screenshots.prefix}-setup`, { axe: screenshots.axe });
  await section.getByLabel("Authenticator code").fill(await app.code());
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  const codes = await shownRecoveryCodes(page);
  if (screenshots) await checkPage(page, `${screenshots.prefix}-recovery-codes`, { axe: screenshots.axe });
  return { app, codes };
}

/** Signs in with the password and lands on the second-factor page (the mfaToken in a cookie, never in the URL). */
export async function signInToSecondFactor(page: Page, user: { email: string; password: string }, query = ""): Promise<void> {
  await signInThroughForm(page, user.email, user.password, query);
  await page.waitForURL(/\/second-factor/);
}
