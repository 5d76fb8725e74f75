import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { ageSignIn } from "./support/database";
import { BASE_URL, checkPage, createUser, environments, latestEmail, linkIn, signInThroughForm, uniqueEmail } from "./support/fixtures";
import { e2eRun } from "./support/run-settings";
import { serverApi } from "./support/server-api";

async function signInToAccount(page: Page, email: string, password: string): Promise<void> {
  await signInThroughForm(page, email, password);
  await page.waitForURL(`${BASE_URL}/account`);
}

test("profile names and language", async ({ page }) => {
  const user = await createUser("profile");
  await signInToAccount(page, user.email, user.password);
  await expect(page.getByLabel("First name")).toHaveValue("Ada");
  await expect(page.getByLabel("First name")).toHaveAttribute("autocomplete", "given-name");
  await expect(page.getByLabel("Last name")).toHaveAttribute("autocomplete", "family-name");
  await checkPage(page, "account");

  await page.getByLabel("First name").fill("Augusta Ada");
  await page.getByRole("combobox", { name: "Language" }).selectOption("da");
  await page.getByRole("button", { name: "Save profile" }).click();
  // The profile's language now decides the page's language (no switcher choice was made).
  await expect(page.getByRole("heading", { level: 1, name: "Din konto" })).toBeVisible();
  await expect(page.getByText("Din profil er gemt.")).toBeVisible();
  await expect(page.getByLabel("Fornavn")).toHaveValue("Augusta Ada");
  await checkPage(page, "account-da");
});

test("add a second address, verify it from the emailed link, make it primary, remove the first", async ({ page }) => {
  const user = await createUser("emails");
  const second = uniqueEmail("second");
  await signInToAccount(page, user.email, user.password);
  const addresses = page.getByRole("form", { name: "Email addresses" });

  await page.getByRole("form", { name: "Add an email address" }).getByLabel("Email address").fill(second);
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(page.getByText(`We sent a verification link to ${second}.`)).toBeVisible();
  const row = addresses.getByTestId("email-address").filter({ hasText: second });
  await expect(row).toContainText("Not verified");
  await checkPage(page, "account-email-added");

  const notice = await latestEmail(user.email, "email_added");
  expect(notice.text).toContain(second);

  // Opening the link only shows what it would do; the button press verifies.
  const link = linkIn(await latestEmail(second, "email_verification_link"), "/email-addresses/verify");
  await page.goto(link);
  await expect(page).toHaveURL(/\/verify-email\/confirm\?/);
  await expect(page.getByText(`Confirm that ${second} is yours`)).toBeVisible();
  await checkPage(page, "verify-email-confirm");
  await page.goto("/account");
  await expect(row).toContainText("Not verified");
  await page.goto(link);
  await page.getByRole("button", { name: "Verify email address" }).click();
  await expect(page.getByText("Your email address is verified.")).toBeVisible();
  await checkPage(page, "verify-email-confirmed");
  await page.getByRole("link", { name: "Go to your account" }).click();
  await expect(row).toContainText("Verified");

  await row.getByRole("button", { name: "Make primary" }).click();
  await expect(page.getByText(`${second} is now your primary address.`)).toBeVisible();
  await expect(row).toContainText("Primary");
  await checkPage(page, "account-email-promoted");
  for (const to of [user.email, second]) await latestEmail(to, "primary_email_changed");

  const first = addresses.getByTestId("email-address").filter({ hasText: user.email });
  await first.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("The address was removed.")).toBeVisible();
  await expect(first).toHaveCount(0);
});

test("change the password: a wrong current password is refused, then the new one works", async ({ page }) => {
  const user = await createUser("changepw");
  await signInToAccount(page, user.email, user.password);
  const form = page.getByRole("form", { name: "Password" });
  await form.getByLabel("Current password").fill("not-it-at-all");
  await form.getByLabel("New password").fill("cobalt-meadow-parsnip-19");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("The current password is wrong.")).toBeVisible();
  await expect(form.getByLabel("Current password")).toBeFocused();
  await checkPage(page, "account-password-wrong");

  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password").fill("cobalt-meadow-parsnip-19");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText(/Your password is changed\./)).toBeVisible();

  await page.getByRole("button", { name: "Sign out of this device" }).click();
  // The sign-out lands on the sign-in page; going there before it does races the action.
  await page.waitForURL(/\/sign-in/);
  await signInToAccount(page, user.email, "cobalt-meadow-parsnip-19");
});

test("sign out another device, then everywhere else; those browsers are signed out", async ({ page, browser }) => {
  const user = await createUser("sessions");
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  const laptopPage = await laptop.newPage();
  const phonePage = await phone.newPage();
  await signInToAccount(laptopPage, user.email, user.password);
  await signInToAccount(phonePage, user.email, user.password);
  await signInToAccount(page, user.email, user.password);

  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(3);
  await expect(sessions.filter({ hasText: "This device" })).toHaveCount(1);
  await checkPage(page, "account-sessions");

  await sessions.filter({ hasNotText: "This device" }).first().getByRole("button", { name: /^Sign out/ }).click();
  await expect(page.getByText("That device is signed out.")).toBeVisible();
  await expect(sessions).toHaveCount(2);

  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByText("Other sessions signed out: 1.")).toBeVisible();
  await expect(sessions).toHaveCount(1);

  for (const other of [laptopPage, phonePage]) {
    await other.goto("/account");
    await expect(other).toHaveURL(/\/sign-in/);
  }
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await laptop.close();
  await phone.close();
});

test("delete the account: type to confirm, then the emailed link", async ({ page }) => {
  const user = await createUser("delete");
  await signInToAccount(page, user.email, user.password);
  const form = page.getByRole("form", { name: "Delete account" });
  await form.getByLabel(`Type ${user.email} to confirm`).fill("someone-else@e2e.test");
  await form.getByRole("button", { name: "Email me a deletion link" }).click();
  await expect(form.getByText("Type your email address exactly as shown.")).toBeVisible();

  await form.getByLabel(`Type ${user.email} to confirm`).fill(user.email);
  await form.getByRole("button", { name: "Email me a deletion link" }).click();
  await expect(form.getByText(`We sent a link to ${user.email}.`)).toBeVisible();
  await checkPage(page, "account-delete-requested");

  const link = linkIn(await latestEmail(user.email, "account_deletion_link"), "/account/delete");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Delete your account?" })).toBeVisible();
  // Opening the link (a mail scanner does too) deletes nothing; only the button does.
  expect((await serverApi(environments().main.secretKey).get<{ status: string }>(`/users/${user.id}`)).status).toBe("active");
  await checkPage(page, "account-delete-confirm");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  await checkPage(page, "account-deleted");

  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);
  await signInThroughForm(page, user.email, user.password);
  await expect(page.getByText("The email or password is wrong.")).toBeVisible();
});

test("request a copy of my data: the emailed link downloads it once", async ({ page }) => {
  const user = await createUser("export");
  await signInToAccount(page, user.email, user.password);
  const form = page.getByRole("form", { name: "Your data" });
  await form.getByRole("button", { name: "Request my data" }).click();
  await expect(form.getByText("We are preparing your data.")).toBeVisible();
  await expect(page.getByTestId("data-request")).toHaveCount(1);

  const link = linkIn(await latestEmail(user.email, "data_export_ready"), "/data-requests/");
  // Opening the link hands nothing out (a mail scanner's pre-fetch must not take the one download).
  const peek = await page.request.get(link);
  expect(await peek.json()).toMatchObject({ status: "ready" });
  await page.goto(link);
  await expect(page).toHaveURL(/\/account\/data-export\?/);
  await expect(page.getByRole("heading", { level: 1, name: "Download your data" })).toBeVisible();
  await checkPage(page, "account-data-export-download");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^data-export-.*\.json$/);
  expect(fs.readFileSync(await download.path(), "utf8")).toContain(user.email);
  await page.goto("/account");
  await expect(page.getByTestId("data-request")).toContainText("Downloaded");
  await checkPage(page, "account-data-export");
});

test("a sensitive change after the recent-sign-in window sends the user to confirm the password, then goes through", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const user = await createUser("stale");
  await signInToAccount(page, user.email, user.password);
  await ageSignIn(user.id, 3600);

  const passwordForm = page.getByRole("form", { name: "Password" });
  await passwordForm.getByLabel("Current password").fill(user.password);
  await passwordForm.getByLabel("New password").fill("juniper-quarry-saffron-64");
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  const confirm = page.getByRole("form", { name: "Confirm it's you" });
  await confirm.getByLabel("Password").fill(user.password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();

  await passwordForm.getByLabel("Current password").fill(user.password);
  await passwordForm.getByLabel("New password").fill("juniper-quarry-saffron-64");
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(passwordForm.getByText(/Your password is changed\./)).toBeVisible();
});

test("adding an address or signing out other devices after the recent-sign-in window asks for the password first", async ({ page, browser }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const user = await createUser("stale-address");
  const phone = await browser.newContext();
  await signInToAccount(await phone.newPage(), user.email, user.password);
  await signInToAccount(page, user.email, user.password);
  await ageSignIn(user.id, 3600);

  const added = uniqueEmail("stale-added");
  await page.getByRole("form", { name: "Add an email address" }).getByLabel("Email address").fill(added);
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  await expect(page.getByTestId("email-address").filter({ hasText: added })).toHaveCount(0);

  // Back to the plain page first: the next refusal's redirect must change the URL, or
  // the check below would pass before it lands and the form would re-render under us.
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  await expect(page.getByTestId("session")).toHaveCount(2);

  const confirm = page.getByRole("form", { name: "Confirm it's you" });
  await confirm.getByLabel("Password").fill(user.password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByText("Other sessions signed out: 1.")).toBeVisible();
  await phone.close();
});

test("confirm the password before a sensitive change", async ({ page }) => {
  const user = await createUser("reverify");
  await signInToAccount(page, user.email, user.password);
  // Where a sensitive action sends someone whose sign-in is no longer recent.
  await page.goto("/account?reverify=1#reverify");
  const form = page.getByRole("form", { name: "Confirm it's you" });
  await form.getByLabel("Password").fill("wrong-password");
  await form.getByRole("button", { name: "Confirm" }).click();
  await expect(form.getByText("The password is wrong.")).toBeVisible();
  await checkPage(page, "account-reverify");
  await form.getByLabel("Password").fill(user.password);
  await form.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();
});
