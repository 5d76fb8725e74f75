import { expect, test } from "@playwright/test";
import { BASE_URL, checkPage, codeIn, createUser, latestEmail, signInThroughForm } from "./support/fixtures";

test("forgot password → emailed code → new password; the old one stops working", async ({ page }) => {
  const user = await createUser("reset");
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
  await checkPage(page, "forgot-password");
  await page.getByLabel("Email address").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();

  await expect(page).toHaveURL(/\/reset-password/);
  await expect(page.getByLabel("Email address")).toHaveValue(user.email);
  await expect(page.getByLabel("6-digit code")).toHaveAttribute("autocomplete", "one-time-code");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("autocomplete", "new-password");
  await checkPage(page, "reset-password");

  const code = codeIn(await latestEmail(user.email, "password_reset_code"));
  await page.getByLabel("6-digit code").fill(code);
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
  await checkPage(page, "reset-password-weak");

  const newPassword = "amber-quokka-trellis-77";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Save new password" }).click();
  await page.waitForURL(`${BASE_URL}/account`);

  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);
  await signInThroughForm(page, user.email, user.password);
  await expect(page.getByText("The email or password is wrong.")).toBeVisible();
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${BASE_URL}/account`);
});
