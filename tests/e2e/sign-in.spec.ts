import { expect, test } from "@playwright/test";
import { ALLOWED_ORIGIN, BASE_URL, checkPage, createUser, environments, latestEmail, linkIn, signInThroughForm } from "./support/fixtures";

test("sign in and go on to the requested redirect", async ({ page }) => {
  const user = await createUser("signin");
  const target = `${ALLOWED_ORIGIN}/dev/mailbox?to=${encodeURIComponent(user.email)}`;
  await page.goto(`/sign-in?redirect_url=${encodeURIComponent(target)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("Acme Notes");
  await expect(page.getByLabel("Email address")).toHaveAttribute("autocomplete", "username webauthn");
  await expect(page.getByLabel("Password")).toHaveAttribute("autocomplete", "current-password");
  await checkPage(page, "sign-in");

  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(target);
  expect(page.url()).toBe(target);
});

test("a wrong password gets a message, announced, without moving the form", async ({ page }) => {
  const user = await createUser("wrongpw");
  await page.goto("/sign-in");
  const button = page.getByRole("button", { name: "Sign in", exact: true });
  const before = await button.boundingBox();
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await button.click();

  const alert = page.getByRole("alert").filter({ hasText: "The email or password is wrong." });
  await expect(alert).toBeVisible();
  await expect(alert).toBeFocused();
  // The space for the message was reserved: the button did not move.
  expect((await button.boundingBox())?.y).toBe(before?.y);
  await expect(page.getByLabel("Email address")).toHaveValue(user.email);
  await checkPage(page, "sign-in-wrong-password");
});

test("the email-verification gate: send the link, open it, continue", async ({ page }) => {
  const { unverifiedUser } = environments();
  await signInThroughForm(page, unverifiedUser.email, unverifiedUser.password);
  await expect(page).toHaveURL(/\/verify-email/);
  await expect(page.getByRole("heading", { level: 1, name: "Verify your email address" })).toBeVisible();
  await checkPage(page, "verify-email");

  await page.getByRole("button", { name: "I have opened the link" }).click();
  await expect(page.getByText("The address is not verified yet.")).toBeVisible();

  await page.getByRole("button", { name: "Email me a link" }).click();
  await expect(page.getByText(`We sent a link to ${unverifiedUser.email}`)).toBeVisible();
  await checkPage(page, "verify-email-sent");
  const link = linkIn(await latestEmail(unverifiedUser.email, "email_verification_link"), "/email-addresses/verify");
  // As from the mail client: a new tab, where only the button press verifies (a scanner's GET must not).
  const mailTab = await page.context().newPage();
  await mailTab.goto(link);
  await mailTab.getByRole("button", { name: "Verify email address" }).click();
  await expect(mailTab.getByText("Your email address is verified.")).toBeVisible();
  await mailTab.close();

  await page.getByRole("button", { name: "I have opened the link" }).click();
  await page.waitForURL(`${BASE_URL}/account`);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in works as a plain form post, with server-side messages next to the fields", async ({ page }) => {
    const user = await createUser("nojs");
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Fill in this field.").first()).toBeVisible();
    await expect(page.getByLabel("Email address")).toBeFocused();
    await checkPage(page, "sign-in-no-js-errors", { axe: false });

    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${BASE_URL}/account`);
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    await checkPage(page, "account-no-js", { axe: false });
  });
});
