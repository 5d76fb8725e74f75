import { expect, test } from "@playwright/test";
import { Authenticator } from "./support/authenticator";
import { checkPage, environments } from "./support/fixtures";
import { answerSecondStep, operatorProof, signInAsOperator } from "./support/operators";
import { shownRecoveryCodes } from "./support/two-step";

const OPERATOR_PASSWORD = "quiet-lighthouse-orchard-57";

/*
 * The operator dashboard, first part: the one-time link from `operator create`, the
 * password it sets, sign-in with next-auth, the overview read through the Server API's
 * operations, the environment switcher, the language, and sign-out.
 */
test("an operator sets a password from the one-time link, signs in, sees the overview, switches environment, and signs out", async ({ page }) => {
  const { operator, main, branded } = environments();

  // Signed out, the dashboard sends you to its sign-in page.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to the dashboard" })).toBeVisible();
  await checkPage(page, "dashboard-sign-in");

  // The one-time link: the address is shown, the policy is the internal environment's.
  await page.goto(operator.signInUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Choose your password" })).toBeVisible();
  await expect(page.getByText(`You are setting up dashboard access for ${operator.email}.`)).toBeVisible();
  await expect(page.getByLabel("New password")).toHaveAttribute("autocomplete", "new-password");
  await checkPage(page, "dashboard-set-password");
  await page.getByLabel("New password").fill("short");
  await page.getByRole("button", { name: "Save password and sign in" }).click();
  await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
  await checkPage(page, "dashboard-set-password-too-short");
  await page.getByLabel("New password").fill(OPERATOR_PASSWORD);
  await page.getByRole("button", { name: "Save password and sign in" }).click();

  // Signed in: the overview of the first environment, its users counted through the Server API's operation.
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(operator.email)).toBeVisible();
  await expect(page.getByTestId("user-count")).toHaveText(/^\d+$/);
  await expect(page.getByRole("combobox", { name: "Environment" })).toHaveValue(main.environmentId);
  await checkPage(page, "dashboard-home");

  // The switcher is a GET form: the choice is in the URL.
  await page.getByRole("combobox", { name: "Environment" }).selectOption(branded.environmentId);
  await page.getByRole("button", { name: "Switch" }).click();
  await page.waitForURL(`**/dashboard?env=${branded.environmentId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(branded.publishableKey)).toBeVisible();

  // Danish, and usable on a phone.
  await page.getByRole("button", { name: "Dansk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Oversigt" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await checkPage(page, "dashboard-home-da-390");
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sign-out ends the session: the dashboard asks to sign in again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/dashboard\/sign-in\?signedOut=1/);
  await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();
  await checkPage(page, "dashboard-signed-out");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in/);

  // The link was spent.
  await page.goto(operator.signInUrl);
  await expect(page.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
  await checkPage(page, "dashboard-link-spent");

  // A wrong password: one message, whichever part was wrong.
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(operator.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The email or password is wrong." })).toBeVisible();
  await checkPage(page, "dashboard-sign-in-wrong-password");

  await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
});

test("the sign-in form works without JavaScript", async ({ browser }) => {
  const { operator } = environments();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(operator.email);
  await page.getByLabel("Password").fill("still not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("The email or password is wrong.")).toBeVisible();
  await checkPage(page, "dashboard-sign-in-no-js", { axe: false });
  await context.close();
});

/*
 * Operators' second factors: the second step of a sign-in, the banner of an owner or
 * admin without one, and setting one up on the account page.
 */
test("an admin with an authenticator app signs in through the second step: a wrong code, then the right one", async ({ page }) => {
  const proof = await operatorProof("admin");
  if (!proof.secondStep) throw new Error("the prepared admin has no authenticator app");
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(proof.email);
  await page.getByLabel("Password").fill(proof.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  // The password alone opens nothing: the second step, its challenge in a cookie, not in the URL.
  await page.waitForURL(/\/dashboard\/sign-in\/verify$/);
  await expect(page.getByRole("heading", { level: 1, name: "Two-step verification" })).toBeVisible();
  await expect(page.getByText("Enter the 6-digit code from your authenticator app.")).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "gh_dashboard")).toBeUndefined();
  expect(cookies.find((cookie) => cookie.name === "gh_operator_mfa")).toMatchObject({ httpOnly: true, path: "/dashboard" });
  await checkPage(page, "dashboard-second-step");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await page.goto("/dashboard/sign-in/verify");

  await page.getByLabel("Authenticator code").fill(proof.secondStep.code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByText("That code is wrong, or this sign-in has expired.")).toBeVisible();
  await checkPage(page, "dashboard-second-step-wrong-code");

  await answerSecondStep(page, proof.secondStep);
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("second-factor-banner")).toHaveCount(0);
  await page.getByRole("link", { name: "Account security", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account security" })).toBeVisible();
  await expect(page.getByTestId("factor-status")).toContainText("On");
  await checkPage(page, "dashboard-account-protected");
});

test("an admin without a second factor sees the banner on every page, leading to the account page", async ({ page }) => {
  const { unprotectedAdmin } = environments();
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(unprotectedAdmin.email);
  await page.getByLabel("Password").fill(unprotectedAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  const banner = page.getByTestId("second-factor-banner");
  await expect(banner).toContainText("Add a second factor");
  await checkPage(page, "dashboard-factor-banner");
  await banner.getByRole("link", { name: "Set one up in Account security" }).click();
  await page.waitForURL(/\/dashboard\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account security" })).toBeVisible();
  await expect(page.getByTestId("second-factor-banner")).toBeVisible();
  await expect(page.getByTestId("factor-status")).toContainText("Off");
  await checkPage(page, "dashboard-account-unprotected");
  await page.setViewportSize({ width: 390, height: 844 });
  await checkPage(page, "dashboard-account-unprotected-390");
});

test("a new admin sets up an authenticator app on the account page, saves the recovery codes, signs in with it, then adds a passkey and signs in with that", async ({ page }) => {
  const { enrollingAdmin } = environments();
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(enrollingAdmin.email);
  await page.getByLabel("Password").fill(enrollingAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  await page.getByRole("link", { name: "Account security", exact: true }).click();
  await page.waitForURL(/\/dashboard\/account$/);

  const section = page.getByRole("region", { name: "Authenticator app" });
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  const app = await Authenticator.fromSetupPage(page);
  await expect(section.getByRole("img", { name: /QR code/ })).toBeVisible();
  await checkPage(page, "dashboard-account-totp-setup");
  await section.getByLabel("Authenticator code").fill(await app.code());
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  const codes = await shownRecoveryCodes(page);
  expect(new Set(codes).size).toBe(10);
  await checkPage(page, "dashboard-account-recovery-codes");
  await section.getByRole("button", { name: "I have saved my codes" }).click();
  await expect(page.getByTestId("factor-status")).toContainText("On");
  // This session was opened with the password alone: it is told to sign in again with the new factor.
  await expect(page.getByTestId("second-factor-banner")).toContainText("Sign in again with your second factor");
  await checkPage(page, "dashboard-account-sign-in-again");

  // The next sign-in asks for the app's code.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/dashboard\/sign-in\?signedOut=1/);
  await page.getByLabel("Email address").fill(enrollingAdmin.email);
  await page.getByLabel("Password").fill(enrollingAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard\/sign-in\/verify$/);
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("second-factor-banner")).toHaveCount(0);

  // A passkey too (Chromium's virtual authenticator stands in for the device), and the next sign-in with it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  await page.getByRole("link", { name: "Account security", exact: true }).click();
  const passkeys = page.getByRole("region", { name: "Passkeys" });
  await passkeys.getByLabel("Name for the passkey").fill("Work laptop");
  await passkeys.getByRole("button", { name: "Add a passkey" }).click();
  await expect(passkeys.getByText("Your passkey is added.")).toBeVisible();
  await expect(passkeys.getByTestId("passkey")).toContainText("Work laptop");
  await checkPage(page, "dashboard-account-passkey");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/dashboard\/sign-in\?signedOut=1/);
  await page.getByLabel("Email address").fill(enrollingAdmin.email);
  await page.getByLabel("Password").fill(enrollingAdmin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard\/sign-in\/verify$/);
  await checkPage(page, "dashboard-second-step-passkey");
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
});

test("signInAsOperator passes the second step for owners and admins, many times in a row, without waiting for a time step", async ({ browser }) => {
  const started = Date.now();
  for (const role of ["owner", "admin", "admin", "owner", "admin", "viewer"] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { email } = await signInAsOperator(page, role);
    await expect(page.getByText(email)).toBeVisible();
    await context.close();
  }
  expect(Date.now() - started).toBeLessThan(45_000);
});
