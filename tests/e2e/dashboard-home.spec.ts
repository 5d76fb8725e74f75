import { expect, test } from "@playwright/test";
import { checkPage, createUser, environments, PASSWORD } from "./support/fixtures";
import { signInAsOperator } from "./support/operators";

/**
 * The overview as a viewer sees it: the environment's activity counted by the
 * activity-summary operation and its latest audit events, in English and Danish,
 * at 1280 px and on a 390 px phone.
 */
test("a viewer sees the overview's activity and latest events, in English and Danish, at 1280 and 390 px", async ({ page }) => {
  // acme: an environment few other specs write to, so this test's event stays among the latest ten.
  const { acme } = environments();
  // A new user of today, so the counts and the list have something of this run's.
  const created = await createUser("home", PASSWORD, acme.secretKey);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsOperator(page, "viewer");
  await page.goto(`/dashboard?env=${acme.environmentId}`);

  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const activity = page.getByRole("region", { name: "Activity" });
  await expect(activity).toBeVisible();
  await expect(page.getByTestId("user-count")).toHaveText(/^[\d,]+$/);
  for (const id of ["signUps-today", "signUps-last7days", "signIns-today", "signIns-last7days"]) {
    await expect(page.getByTestId(id)).toHaveText(/^[\d,]+$/);
  }
  expect(Number((await page.getByTestId("signUps-today").textContent())?.replace(/,/g, ""))).toBeGreaterThanOrEqual(1);
  await expect(activity.getByText(/Days are UTC days/)).toBeVisible();

  const latest = page.getByRole("region", { name: "Latest events" });
  const list = latest.getByRole("list", { name: "Latest events" });
  await expect(list).toBeVisible();
  const items = list.getByRole("listitem");
  expect(await items.count()).toBeGreaterThan(0);
  expect(await items.count()).toBeLessThanOrEqual(10);
  // The newest is this test's user: a readable label, the raw type, the subject, a machine-readable time.
  const newest = items.filter({ hasText: created.id }).first();
  await expect(newest.getByText("User created", { exact: true })).toBeVisible();
  await expect(newest.getByText("user.created", { exact: true })).toBeVisible();
  await expect(newest.getByText("Secret key", { exact: false })).toBeVisible();
  expect(await newest.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await checkPage(page, "dashboard-home-viewer");

  // A phone: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(list).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await checkPage(page, "dashboard-home-viewer-390");

  // Danish copy for the same state.
  await page.getByRole("button", { name: "Dansk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Oversigt" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Aktivitet" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Seneste hændelser" }).getByText("Bruger oprettet").first()).toBeVisible();
  await checkPage(page, "dashboard-home-viewer-da-390");
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
});
