import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { Authenticator } from "./support/authenticator";
import { ageSignIn } from "./support/database";
import { BASE_URL, checkPage, codeIn, createUser, environments, latestEmail, PASSWORD, signInThroughForm, uniqueEmail } from "./support/fixtures";
import { e2eRun } from "./support/run-settings";
import { serverApi } from "./support/server-api";
import { shownRecoveryCodes, signInToSecondFactor, turnOnTwoStep } from "./support/two-step";

async function signInToAccount(page: Page, email: string, password: string, query = ""): Promise<void> {
  await signInThroughForm(page, email, password, query);
  await page.waitForURL((url) => url.pathname === "/account");
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);
}

test("turn on two-step verification from the account page: QR code and key, recovery codes shown once and downloaded, regenerate, turn off", async ({ page }) => {
  const user = await createUser("mfa-on");
  await signInToAccount(page, user.email, user.password);
  const section = page.getByRole("region", { name: "Two-step verification" });
  await expect(section).toContainText("Two-step verification is off.");

  const { codes } = await turnOnTwoStep(page, { prefix: "account-mfa" });
  await expect(page.getByText("Two-step verification is on.", { exact: true })).toBeVisible();
  await latestEmail(user.email, "mfa_enabled");

  const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download as a text file" }).click()]);
  expect(download.suggestedFilename()).toBe("acme-notes-recovery-codes.txt");
  const file = fs.readFileSync(await download.path(), "utf8");
  expect(file).toContain(`Recovery codes for Acme Notes (${user.email})`);
  for (const code of codes) expect(file).toContain(code);

  // Shown once: after "saved", the page says how many are left and never shows them again.
  await section.getByRole("button", { name: "I have saved my codes" }).click();
  await expect(section).toContainText("Unused recovery codes: 10.");
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
  await checkPage(page, "account-mfa-on");

  await section.getByRole("button", { name: "Generate new recovery codes" }).click();
  const fresh = await shownRecoveryCodes(page);
  expect(fresh).not.toEqual(codes);
  await checkPage(page, "account-mfa-regenerated-codes");
  await latestEmail(user.email, "recovery_codes_regenerated");
  await section.getByRole("button", { name: "I have saved my codes" }).click();

  const turnOff = page.getByRole("form", { name: "Turn off two-step verification" });
  await turnOff.getByLabel("Authenticator code").fill("000000");
  await turnOff.getByRole("button", { name: "Turn off" }).click();
  await expect(turnOff.getByText("The code is wrong.")).toBeVisible();
  await expect(turnOff.getByLabel("Authenticator code")).toBeFocused();
  await checkPage(page, "account-mfa-turn-off-wrong-code");
  // A recovery code also proves the second factor; an old one (replaced above) does not.
  await turnOff.getByLabel("Authenticator code").fill(codes[0] ?? "");
  await turnOff.getByRole("button", { name: "Turn off" }).click();
  // The same message as before: the answer has come when the field is empty again.
  await expect(turnOff.getByLabel("Authenticator code")).toHaveValue("");
  await expect(turnOff.getByText("The code is wrong.")).toBeVisible();
  await turnOff.getByLabel("Authenticator code").fill(fresh[0] ?? "");
  await turnOff.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByText("Two-step verification is off.", { exact: true })).toBeVisible();
  await expect(section).toContainText("Two-step verification is off. Protect your account");
  await checkPage(page, "account-mfa-off");
  await latestEmail(user.email, "mfa_disabled");
});

test("a wrong code while turning it on keeps the same QR code and key", async ({ page }) => {
  const user = await createUser("mfa-wrong-confirm");
  await signInToAccount(page, user.email, user.password);
  const section = page.getByRole("region", { name: "Two-step verification" });
  await section.getByRole("button", { name: "Turn on two-step verification" }).click();
  const secret = await page.getByTestId("totp-secret").innerText();
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByText("Fill in this field.")).toBeVisible();
  await section.getByLabel("Authenticator code").fill("000000");
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(section.getByText("That code is wrong.")).toBeVisible();
  await expect(section.getByLabel("Authenticator code")).toBeFocused();
  expect(await page.getByTestId("totp-secret").innerText()).toBe(secret);
  await checkPage(page, "account-mfa-setup-wrong-code");

  await section.getByLabel("Authenticator code").fill(await new Authenticator(secret).code());
  await section.getByRole("button", { name: "Turn on", exact: true }).click();
  await shownRecoveryCodes(page);
});

test("an MFA user signs in with a code on the second-factor page, and with a recovery code instead", async ({ page }) => {
  const user = await createUser("mfa-signin");
  await signInToAccount(page, user.email, user.password);
  const { app, codes } = await turnOnTwoStep(page);
  await signOut(page);

  await signInToSecondFactor(page, user);
  // The mfaToken stays out of the URL.
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByRole("heading", { level: 1, name: "Two-step verification" })).toBeVisible();
  await expect(page.getByLabel("Authenticator code")).toHaveAttribute("autocomplete", "one-time-code");
  // No passkey on this account: no passkey button.
  await expect(page.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
  await checkPage(page, "second-factor");
  // Not signed in yet: the account page sends back to sign-in.
  const probe = await page.request.get("/_svc/client");
  expect(await probe.json()).toMatchObject({ authenticated: false });

  await page.getByLabel("Authenticator code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  const wrong = page.getByText("That code is wrong, or this sign-in has expired.");
  await expect(wrong).toBeVisible();
  await expect(page.getByLabel("Authenticator code")).toBeFocused();
  await checkPage(page, "second-factor-wrong-code");
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
  await signOut(page);

  await signInToSecondFactor(page, user);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await expect(page).toHaveURL(/\/second-factor\?method=recovery/);
  await expect(page.getByLabel("Recovery code")).toBeVisible();
  await checkPage(page, "second-factor-recovery");
  await page.getByLabel("Recovery code").fill(codes[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
  await expect(page.getByRole("region", { name: "Two-step verification" })).toContainText("Unused recovery codes: 9.");
  await signOut(page);

  // A recovery code works once.
  await signInToSecondFactor(page, user);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(codes[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is wrong, or this sign-in has expired.")).toBeVisible();
  await page.getByRole("link", { name: "Use your authenticator app instead" }).click();
  await expect(page.getByLabel("Authenticator code")).toBeVisible();
});

test("the second-factor page in Danish, and after the sign-in is gone", async ({ page }) => {
  const user = await createUser("mfa-da");
  await signInToAccount(page, user.email, user.password);
  await turnOnTwoStep(page);
  await signOut(page);
  await signInToSecondFactor(page, user);
  await page.getByRole("button", { name: "Dansk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Totrinsbekræftelse" })).toBeVisible();
  await expect(page.getByLabel("Kode fra godkendelsesapp")).toBeVisible();
  await checkPage(page, "second-factor-da");

  await page.context().clearCookies({ name: "gh_mfa" });
  await page.reload();
  await expect(page.getByText("Login er udløbet eller allerede gennemført.")).toBeVisible();
  await checkPage(page, "second-factor-expired-da");
});

test("confirming it's you as an MFA user takes the password and a current code", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const user = await createUser("mfa-reverify");
  await signInToAccount(page, user.email, user.password);
  const { app } = await turnOnTwoStep(page);
  await page.getByRole("button", { name: "I have saved my codes" }).click();
  await ageSignIn(user.id, 3600);

  await page.getByRole("button", { name: "Generate new recovery codes" }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  const confirm = page.getByRole("form", { name: "Confirm it's you" });
  await expect(page.getByText("enter your password and a code from your authenticator app")).toBeVisible();
  await confirm.getByLabel("Password").fill(user.password);
  await confirm.getByLabel("Authenticator code").fill("000000");
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(confirm.getByText("The password or the code is wrong.")).toBeVisible();
  await checkPage(page, "account-reverify-mfa");

  await confirm.getByLabel("Password").fill(user.password);
  await confirm.getByLabel("Authenticator code").fill(await app.code());
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();
  await page.getByRole("button", { name: "Generate new recovery codes" }).click();
  await shownRecoveryCodes(page);
});

test("a password reset of an MFA user does not sign in past the second factor", async ({ page }) => {
  const user = await createUser("mfa-reset");
  await signInToAccount(page, user.email, user.password);
  const { app } = await turnOnTwoStep(page);
  await signOut(page);

  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email address").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/reset-password/);
  await page.getByLabel("6-digit code").fill(codeIn(await latestEmail(user.email, "password_reset_code")));
  await page.getByLabel("New password", { exact: true }).fill("quartz-lagoon-fennel-31");
  await page.getByRole("button", { name: "Save new password" }).click();
  await page.waitForURL(/\/second-factor/);
  expect(await (await page.request.get("/_svc/client")).json()).toMatchObject({ authenticated: false });
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
});

test("signing up where MFA is required goes from the emailed code to enrollment", async ({ page }) => {
  const { enforced } = environments();
  const email = uniqueEmail("enforced-signup");
  await page.goto(`/sign-up?pk=${enforced.publishableKey}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-code\?/);
  await page.getByLabel("6-digit code").fill(codeIn(await latestEmail(email, "sign_up_code")));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(/\/mfa-enrollment/);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const app = await Authenticator.fromSetupPage(page);
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  await shownRecoveryCodes(page);
  await page.getByRole("link", { name: "I have saved my codes" }).click();
  await page.waitForURL((url) => url.pathname === "/account");
});

test("enforced enrollment: a user without a factor sets up an authenticator app before any session, then signs in with it", async ({ page }) => {
  const { enforced } = environments();
  const query = `?pk=${enforced.publishableKey}`;
  const user = await createUser("enforced", undefined, enforced.secretKey);
  await signInThroughForm(page, user.email, user.password, query);
  await page.waitForURL(/\/mfa-enrollment/);
  expect(new URL(page.url()).searchParams.get("pk")).toBe(enforced.publishableKey);
  await expect(page.getByRole("heading", { level: 1, name: "Set up two-step verification" })).toBeVisible();
  await expect(page.getByText("Fortress Bank requires two-step verification.")).toBeVisible();
  await checkPage(page, "mfa-enrollment");
  expect(await (await page.request.get(`/_svc/client${query}`)).json()).toMatchObject({ authenticated: false });

  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const app = await Authenticator.fromSetupPage(page);
  await checkPage(page, "mfa-enrollment-setup");
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  await shownRecoveryCodes(page);
  await expect(page.getByText("Two-step verification is on.")).toBeVisible();
  await checkPage(page, "mfa-enrollment-recovery-codes");
  await page.getByRole("link", { name: "I have saved my codes" }).click();
  await page.waitForURL((url) => url.pathname === "/account");
  await expect(page.getByRole("region", { name: "Two-step verification" })).toContainText("Two-step verification is on");

  await signOut(page);
  await signInToSecondFactor(page, user, query);
  await page.getByLabel("Authenticator code").fill(await app.code());
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL((url) => url.pathname === "/account");
});

test("turning on mfa.required holds a signed-in user at the enrollment gate until they enroll", async ({ page }) => {
  const { gated } = environments();
  const query = `?pk=${gated.publishableKey}`;
  const user = await createUser("gated", undefined, gated.secretKey);
  await signInToAccount(page, user.email, user.password, query);
  await serverApi(gated.secretKey).patch("/environment", { mfa: { required: true } });
  try {
    await page.reload();
    await page.waitForURL(/\/mfa-enrollment/);
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await checkPage(page, "mfa-enrollment-gate");
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const app = await Authenticator.fromSetupPage(page);
    await page.getByLabel("Authenticator code").fill(await app.code());
    await page.getByRole("button", { name: "Turn on", exact: true }).click();
    await shownRecoveryCodes(page);
    await page.getByRole("link", { name: "I have saved my codes" }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  } finally {
    await serverApi(gated.secretKey).patch("/environment", { mfa: { required: false } });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("turn on two-step verification, download the codes, and sign in with a code and with a recovery code", async ({ page }) => {
    const user = await createUser("mfa-nojs");
    await signInToAccount(page, user.email, user.password);
    const { app, codes } = await turnOnTwoStep(page, { prefix: "account-mfa-no-js", axe: false });
    // No copy button without the clipboard API; the download is a plain link.
    await expect(page.getByRole("button", { name: "Copy codes" })).toHaveCount(0);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download as a text file" }).click()]);
    expect(fs.readFileSync(await download.path(), "utf8")).toContain(codes[1] ?? "-");
    await page.getByRole("button", { name: "I have saved my codes" }).click();
    await expect(page.getByText("Unused recovery codes: 10.")).toBeVisible();
    await signOut(page);

    await signInToSecondFactor(page, user);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("Fill in this field.")).toBeVisible();
    await checkPage(page, "second-factor-no-js-empty", { axe: false });
    await page.getByLabel("Authenticator code").fill(await app.code());
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${BASE_URL}/account`);
    await signOut(page);

    await signInToSecondFactor(page, user);
    await page.getByRole("link", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(codes[1] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${BASE_URL}/account`);
  });
});
