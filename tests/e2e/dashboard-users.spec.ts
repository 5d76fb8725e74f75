import { expect, test, type Page } from "@playwright/test";
import { seedUsers } from "./support/database";
import { e2eRun } from "./support/run-settings";
import { checkPage, createUser, environments, PASSWORD, signInThroughForm } from "./support/fixtures";
import { signInAsOperator } from "./support/operators";

/*
 * The dashboard's Users screens: search at scale, a user's page and what an admin
 * may do there (metadata, sessions, ban, impersonation, deletion), and a viewer's
 * read-only view. The 5,000 seeded users go to the `consenting` environment, whose
 * user count no other spec reads.
 */

test.describe.configure({ mode: "serial" });

const tag = `find${Date.now().toString(36)}`;

async function userPage(page: Page, environmentId: string, userId: string) {
  await page.goto(`/dashboard/users/${userId}?env=${environmentId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test("finds one user among 5,000 by an email fragment, a page at a time", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "seeds 5,000 users in one statement into the database, which the server holds open under PGlite");
  const { consenting } = environments();
  await seedUsers(consenting.environmentId, tag, 5000);
  await signInAsOperator(page, "admin");
  await page.goto(`/dashboard/users?env=${consenting.environmentId}`);
  await expect(page.getByRole("table")).toBeVisible();
  await checkPage(page, "dashboard-users-list");
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await checkPage(page, "dashboard-users-list-page-2");

  await page.getByLabel("Email contains").fill(`${tag}-4321@`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: `${tag}-4321@bulk.example` })).toBeVisible();
  await checkPage(page, "dashboard-users-search");

  await page.getByLabel("Email contains").fill(`${tag}-nobody`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("users-empty")).toBeVisible();
  await checkPage(page, "dashboard-users-empty");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/users?env=${consenting.environmentId}&email=${tag}-43`);
  await checkPage(page, "dashboard-users-390");
});

test("an admin edits metadata, revokes a session, bans and unbans, impersonates and deletes", async ({ page, browser }) => {
  const { main } = environments();
  const user = await createUser("dash-user");
  const email = user.email;
  // A session of the user's own, from another browser.
  const other = await browser.newContext();
  await signInThroughForm(await other.newPage(), email, PASSWORD);
  await other.close();

  await signInAsOperator(page, "admin");
  await userPage(page, main.environmentId, user.id);
  await checkPage(page, "dashboard-user");

  // Metadata over its limit: the error in place, nothing saved.
  const editor = page.getByTestId("metadata-publicMetadata");
  await editor.fill(JSON.stringify({ notes: "x".repeat(600) }));
  await expect(page.getByTestId("counter-publicMetadata")).toContainText("over the limit");
  await page.getByRole("button", { name: "Save: Public metadata" }).click();
  await expect(page.getByText(/Nothing was saved: this is \d+ bytes; the limit is 512\./)).toBeVisible();
  await checkPage(page, "dashboard-user-metadata-too-large");
  await page.reload();
  await expect(page.getByTestId("metadata-publicMetadata")).toHaveValue("{}");

  // Revoke the session.
  await page.getByRole("button", { name: /^Revoke the session from/ }).first().click();
  // The revoked row keeps no form (and so no toast): the row's status says it.
  await expect(page.getByTestId("session-row").first()).toContainText("Revoked");

  // Ban and unban.
  await page.getByRole("button", { name: "Ban user" }).click();
  await expect(page.getByRole("button", { name: "Unban user" })).toBeVisible();
  await checkPage(page, "dashboard-user-banned");
  await page.getByRole("button", { name: "Unban user" }).click();
  await expect(page.getByRole("button", { name: "Ban user" })).toBeVisible();

  // Impersonate: a new tab on the hosted account page with the banner; a forbidden change is refused; End.
  await page.getByLabel("Reason (optional)").fill("e2e support check");
  await page.getByRole("button", { name: "Impersonate", exact: true }).click();
  const open = page.getByRole("button", { name: "Open as this user in a new tab" });
  await expect(open).toBeVisible();
  await checkPage(page, "dashboard-user-impersonate-ready");
  const [tab] = await Promise.all([page.waitForEvent("popup"), open.click()]);
  await tab.waitForURL(/\/account/);
  await expect(tab.getByText(/You are viewing as/)).toBeVisible();
  expect(tab.url()).not.toMatch(/token=/);
  await checkPage(tab, "dashboard-impersonation-account");
  // Changing the password is the user's own: refused in place while impersonating.
  const passwordForm = tab.getByRole("form", { name: "Password" });
  await passwordForm.getByLabel("Current password").fill(PASSWORD);
  await passwordForm.getByLabel("New password").fill("cobalt-meadow-parsnip-19");
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(passwordForm.getByText("Not while impersonating: only the user can change this.")).toBeVisible();
  await checkPage(tab, "dashboard-impersonation-password-refused");
  await tab.getByRole("button", { name: "End impersonation" }).click();
  await tab.waitForURL(/sign-in/);
  await tab.close();

  // Delete: a wrong confirmation first, then the address.
  const confirmation = page.getByLabel(/^Type .* to confirm$/);
  await confirmation.fill("not-the-address@example.com");
  await page.getByRole("button", { name: "Delete user" }).click();
  await expect(page.getByText("That does not match. Type it exactly as shown.")).toBeVisible();
  await checkPage(page, "dashboard-user-delete-mismatch");
  await page.getByLabel(/^Type .* to confirm$/).fill(email);
  await page.getByRole("button", { name: "Delete user" }).click();
  await expect(page.getByText("Deleted", { exact: true }).first()).toBeVisible();
  await checkPage(page, "dashboard-user-deleted");
});

test("a viewer sees a user but no write controls, in Danish too", async ({ page, context }) => {
  const { main } = environments();
  const user = await createUser("dash-viewer");
  await signInAsOperator(page, "viewer");
  await userPage(page, main.environmentId, user.id);
  await expect(page.getByText("Your role can look but not change anything here.")).toBeVisible();
  for (const name of ["Ban user", "Delete user", "Impersonate", "Save profile", "Revoke all sessions"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await checkPage(page, "dashboard-user-viewer");
  await context.addCookies([{ name: "gh_locale", value: "da", url: page.url() }]);
  await page.reload();
  await expect(page.getByRole("link", { name: "Brugere" }).first()).toBeVisible();
  await checkPage(page, "dashboard-user-viewer-da");
});
