import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { BASE_URL } from "./fixtures";

/**
 * The loopback OpenID provider global-setup starts for the whole run (one for every
 * spec) and adds, with this id and name, to the main and the consenting environments.
 * Any login typed into its form is an account with the verified email `{login}@idp.example`.
 */
export const PROVIDER_ID = "idp";
export const PROVIDER_NAME = "Loopback ID";

/** A fresh account at the provider: its login (the `sub`) and the address it asserts. */
export function providerAccount(label: string): { login: string; email: string } {
  const login = `${label}-${randomBytes(4).toString("hex")}`;
  return { login, email: `${login}@idp.example` };
}

/** The provider's pages load a web font from the internet, which this machine has not: refuse it at once. */
export async function offlineProviderPages(page: Page): Promise<void> {
  await page.context().route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) => route.abort());
}

function atProvider(url: URL): boolean {
  return url.origin !== BASE_URL && url.pathname.startsWith("/interaction/");
}

/**
 * After the browser has left for the provider: types the login and any password into
 * its sign-in form and presses "Continue" on its consent page, as a person does; the
 * provider then sends the browser back to our callback. A provider that still knows
 * this browser (signed in, consent given) asks nothing and is passed straight through.
 */
export async function signInAtProvider(page: Page, login: string): Promise<void> {
  for (let step = 0; step < 2; step += 1) {
    await page.waitForURL((url) => atProvider(url) || url.origin === BASE_URL);
    if (!atProvider(new URL(page.url()))) return;
    const loginField = page.locator('input[name="login"]');
    const from = page.url();
    if (await loginField.isVisible()) {
      await loginField.fill(login);
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
    }
    await page.waitForURL((url) => url.toString() !== from);
  }
  await expect(page).toHaveURL((url) => url.origin === BASE_URL);
}

/** At the provider's sign-in page, presses its "[ Cancel ]" link: the provider answers access_denied. */
export async function cancelAtProvider(page: Page): Promise<void> {
  await page.waitForURL((url) => atProvider(url));
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await page.waitForURL((url) => url.origin === BASE_URL);
}
