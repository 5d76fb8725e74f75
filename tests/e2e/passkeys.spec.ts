import { expect, test, type CDPSession, type Page } from "@playwright/test";
import { ageSignIn } from "./support/database";
import { BASE_URL, checkPage, createUser, latestEmail, signInThroughForm } from "./support/fixtures";
import { e2eRun } from "./support/run-settings";
import { signInToSecondFactor, turnOnTwoStep } from "./support/two-step";

/**
 * Chromium's virtual WebAuthn authenticator (DevTools protocol): a platform
 * authenticator with resident keys and user verification that answers every
 * ceremony by itself, standing in for Touch ID or Windows Hello. Passkeys live in
 * it for as long as the page's CDP session does.
 */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

/**
 * The virtual authenticator answers every request by itself, a conditional (autofill)
 * one included, so on the sign-in page it would sign in before any button is
 * pressed. Tests of the buttons stand in for a browser without conditional UI.
 */
async function withoutConditionalUi(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
  });
}

async function credentialCount(authenticator: { cdp: CDPSession; authenticatorId: string }): Promise<number> {
  const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
  return credentials.length;
}

async function signInToAccount(page: Page, email: string, password: string): Promise<void> {
  await signInThroughForm(page, email, password);
  await page.waitForURL(`${BASE_URL}/account`);
}

async function addPasskey(page: Page, name?: string): Promise<void> {
  const section = page.getByRole("region", { name: "Passkeys" });
  if (name) await section.getByLabel("Name for the passkey").fill(name);
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(section.getByText("Your passkey is added.")).toBeVisible();
}

test("add a passkey on the account page, rename it, sign out, sign in with it and no email, remove it", async ({ page }) => {
  const user = await createUser("passkey");
  await withoutConditionalUi(page);
  const authenticator = await virtualAuthenticator(page);
  await signInToAccount(page, user.email, user.password);
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section).toContainText("You have no passkeys yet.");
  await checkPage(page, "account-passkeys-none");

  await addPasskey(page);
  const rows = section.getByTestId("passkey");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Not used yet");
  expect(await credentialCount(authenticator)).toBe(1);
  await checkPage(page, "account-passkeys-added");
  const notice = await latestEmail(user.email, "passkey_added");
  expect(notice.text).toContain("Passkey");

  const name = "Passkey";
  await rows.first().getByText(`Rename: ${name}`).click();
  await rows.first().getByLabel(`New name for ${name}`).fill("");
  await rows.first().getByRole("button", { name: "Save name" }).click();
  await expect(rows.first().getByText("Fill in this field.")).toBeVisible();
  await checkPage(page, "account-passkeys-rename-error");
  await rows.first().getByLabel(`New name for ${name}`).fill("Work laptop");
  await rows.first().getByRole("button", { name: "Save name" }).click();
  await expect(section.getByText("The passkey is renamed.")).toBeVisible();
  await expect(rows.first()).toContainText("Work laptop");

  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);
  await expect(page.getByLabel("Email address")).toHaveAttribute("autocomplete", "username webauthn");
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await checkPage(page, "sign-in-with-passkey");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(rows.first()).toContainText("Last used");

  await rows.first().getByRole("button", { name: "Remove: Work laptop" }).click();
  await expect(section.getByText("The passkey is removed.")).toBeVisible();
  await expect(rows).toHaveCount(0);
});

test("the sign-in page offers the passkeys in the email field's autofill (conditional UI) and signs in with no email typed", async ({ page, context }) => {
  const user = await createUser("passkey-autofill");
  await withoutConditionalUi(page);
  const first = await virtualAuthenticator(page);
  await signInToAccount(page, user.email, user.password);
  await addPasskey(page);
  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);

  // A browser with conditional UI, holding the same passkey: opening sign-in starts the autofill request.
  const { credentials } = await first.cdp.send("WebAuthn.getCredentials", { authenticatorId: first.authenticatorId });
  const other = await context.newPage();
  const second = await virtualAuthenticator(other);
  for (const credential of credentials) await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential });
  await other.goto("/sign-in");
  await other.waitForURL(`${BASE_URL}/account`);
  await expect(other.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(other.getByTestId("passkey").first()).toContainText("Last used");
});

test("a passkey answers the second-factor challenge of a password sign-in", async ({ page }) => {
  const user = await createUser("passkey-2fa");
  await withoutConditionalUi(page);
  await virtualAuthenticator(page);
  await signInToAccount(page, user.email, user.password);
  await turnOnTwoStep(page);
  await page.getByRole("button", { name: "I have saved my codes" }).click();
  await addPasskey(page, "Phone");
  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);

  await signInToSecondFactor(page, user);
  await expect(page.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await checkPage(page, "second-factor-with-passkey");
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
});

test("a stale sign-in confirms it's you with a passkey", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const user = await createUser("passkey-reverify");
  await withoutConditionalUi(page);
  await virtualAuthenticator(page);
  await signInToAccount(page, user.email, user.password);
  await addPasskey(page);
  await ageSignIn(user.id, 3600);

  const rows = page.getByTestId("passkey");
  await rows.first().getByRole("button", { name: /^Remove/ }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  await expect(page.getByRole("button", { name: "Confirm with a passkey" })).toBeVisible();
  await checkPage(page, "account-reverify-passkey");
  await page.getByRole("button", { name: "Confirm with a passkey" }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();
  await rows.first().getByRole("button", { name: /^Remove/ }).click();
  await expect(page.getByText("The passkey is removed.")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the account page says passkeys need JavaScript and offers no dead button", async ({ page }) => {
    const user = await createUser("passkey-nojs");
    await signInToAccount(page, user.email, user.password);
    const section = page.getByRole("region", { name: "Passkeys" });
    // Said in a <noscript>, whose text Playwright's locators skip: read from the markup.
    expect(await section.innerHTML()).toMatch(/<noscript><p[^>]*>Passkeys need JavaScript/);
    await expect(section.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
  });
});
