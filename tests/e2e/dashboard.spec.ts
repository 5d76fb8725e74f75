import { expect, test } from "@playwright/test";
import { checkPage, environments } from "./support/fixtures";

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
