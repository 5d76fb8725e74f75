import { expect, test } from "@playwright/test";
import { ALLOWED_ORIGIN, checkPage, codeIn, environments, latestEmail, PASSWORD, uniqueEmail } from "./support/fixtures";
import { serverApi } from "./support/server-api";

// These tests switch the branded environment's consent setting, so they run one after the other.
test.describe.configure({ mode: "serial" });

test("sign up, enter the emailed code, accept the new terms at the consent gate, land back on an allowed origin", async ({ page }) => {
  const { branded } = environments();
  const api = serverApi(branded.secretKey);
  await api.patch("/environment", { legal: { requireConsent: false } });
  const email = uniqueEmail("signup");
  const target = `${ALLOWED_ORIGIN}/dev/mailbox?to=${encodeURIComponent(email)}`;
  const query = `?pk=${branded.publishableKey}&redirect_url=${encodeURIComponent(target)}`;

  await page.goto(`/sign-up${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  // Branding: the environment's name and accent colour.
  await expect(page.getByRole("banner")).toContainText("Northwind Travel");
  await expect(page.getByRole("button", { name: "Create account" })).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await checkPage(page, "sign-up");

  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page).toHaveURL(/\/verify-code\?/);
  expect(new URL(page.url()).searchParams.get("pk")).toBe(branded.publishableKey);
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await expect(page.getByText(/You can ask for a new code in \d+ s\./)).toBeVisible();
  await expect(page.getByRole("button", { name: "Send a new code" })).toBeDisabled();
  await checkPage(page, "verify-code");

  await page.getByLabel("6-digit code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is wrong or has expired.")).toBeVisible();
  await expect(page.getByLabel("6-digit code")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, "verify-code-wrong-code");

  // The operator starts requiring consent while this person is between steps.
  await api.patch("/environment", { legal: { requireConsent: true } });
  const code = codeIn(await latestEmail(email, "sign_up_code"));
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();

  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.getByRole("heading", { level: 1, name: "Accept the terms" })).toBeVisible();
  await expect(page.getByRole("link", { name: /terms of service/ })).toHaveAttribute("href", "https://northwind.example/terms");
  await checkPage(page, "consent");
  await page.getByRole("button", { name: "Accept and continue" }).click();
  await expect(page.getByText("Tick the box to accept the terms.")).toBeVisible();
  await checkPage(page, "consent-error");
  await page.getByLabel(/I have read and accept/).check();
  await page.getByRole("button", { name: "Accept and continue" }).click();

  await page.waitForURL(target);
  expect(page.url()).toBe(target);
  await page.screenshot({ path: "test-results/redirected-to-allowed-origin.png", fullPage: true });

  // Signed in now: opening sign-in again goes straight on to the redirect.
  await page.goto(`/sign-in${query}`);
  await page.waitForURL(target);
  expect(page.url()).toBe(target);
});

test("the sign-up form asks for consent when the environment requires it", async ({ page }) => {
  const { branded } = environments();
  await serverApi(branded.secretKey).patch("/environment", { legal: { requireConsent: true } });
  await page.goto(`/sign-up?pk=${branded.publishableKey}`);
  await page.getByLabel("Email address").fill(uniqueEmail("consent"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  const consent = page.getByLabel(/I have read and accept/);
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Tick the box to accept the terms.")).toBeVisible();
  await checkPage(page, "sign-up-consent-required");

  await consent.check();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-code\?/);
});

test("the CAPTCHA slot appears when the environment turns CAPTCHA on", async ({ page }) => {
  const { branded } = environments();
  const api = serverApi(branded.secretKey);
  await api.patch("/environment", { legal: { requireConsent: false }, signUp: { captcha: { enabled: true, provider: "test", testPassToken: "let-me-in" } } });
  try {
    await page.goto(`/sign-up?pk=${branded.publishableKey}`);
    await page.getByLabel("Email address").fill(uniqueEmail("captcha"));
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("CAPTCHA answer").fill("a-robot-guess");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("The CAPTCHA was not accepted. Try again.")).toBeVisible();
    await checkPage(page, "sign-up-captcha");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("CAPTCHA answer").fill("let-me-in");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/verify-code\?/);
  } finally {
    await api.patch("/environment", { signUp: { captcha: { enabled: false } } });
  }
});
