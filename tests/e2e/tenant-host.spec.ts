import { expect, test } from "@playwright/test";
import { e2eRun } from "./support/run-settings";
import { checkPage, createUser, environments } from "./support/fixtures";

/**
 * Issue 7 item 13: a flow that arrives on an environment's own frontend host stays
 * on it — its session cookie is host-only and lives there. Before, fallbacks and
 * relative redirects went to PUBLIC_URL (localhost:PORT), where the user was not
 * signed in.
 */
const ACME = `http://acme.localhost:${e2eRun().port}`;

for (const [label, query] of [
  ["no redirect_url", ""],
  ["a refused redirect_url", `?redirect_url=${encodeURIComponent("https://evil.example/steal")}`],
  ["a relative redirect_url", `?redirect_url=${encodeURIComponent("/account")}`],
] as const) {
  test(`signing in on the tenant's own host with ${label} ends signed in on that host's account page`, async ({ page }) => {
    const user = await createUser("acme", undefined, environments().acme.secretKey);
    await page.goto(`${ACME}/sign-in${query}`);
    await expect(page.getByRole("banner")).toContainText("Acme Tenant");
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${ACME}/account`);
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    expect(new URL(page.url()).searchParams.has("pk")).toBe(false);
    if (!query) await checkPage(page, "tenant-host-account");
  });
}
