import { expect, test } from "@playwright/test";
import { BASE_URL, checkPage, createUser, environments } from "./support/fixtures";
import { serverApi } from "./support/server-api";

const ACTOR = "support-agent-e2e";

test("impersonate: the banner on every hosted page, a forbidden change refused in place, End signs out", async ({ page }) => {
  const { secretKey, publishableKey } = environments().main;
  const user = await createUser("impersonated");
  const { token } = await serverApi(secretKey).post<{ token: string }>("/impersonation-tokens", { userId: user.id, actorId: ACTOR, reason: "e2e" });
  // Redeemed in the browser's own context, as an app would: the session cookie lands in this browser.
  const opened = await page.request.post("/_svc/auth/session/impersonate", { data: { token }, headers: { "x-api-key": publishableKey } });
  expect(opened.status()).toBe(200);
  expect((await opened.json()).session.actor).toEqual({ sub: ACTOR });

  await page.goto("/account");
  const banner = page.getByRole("complementary", { name: "You are viewing as Ada Lovelace" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(`Acting as ${ACTOR}.`);
  await checkPage(page, "impersonation-account");

  const password = page.getByRole("form", { name: "Password" });
  await password.getByLabel("Current password").fill(user.password);
  await password.getByLabel("New password").fill("cobalt-meadow-parsnip-19");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("Not while impersonating: only the user can change this.")).toBeVisible();
  await checkPage(page, "impersonation-password-refused");

  // Another hosted page, in the other language: the banner is there too.
  await page.goto("/organizations/new");
  await page.getByRole("button", { name: "Dansk" }).click();
  await expect(page.getByRole("complementary", { name: "Du ser siden som Ada Lovelace" })).toBeVisible();
  await checkPage(page, "impersonation-banner-da");
  await page.getByRole("button", { name: "English" }).click();

  await page.getByRole("complementary").getByRole("button", { name: "End impersonation" }).click();
  await page.waitForURL(new RegExp(`^${BASE_URL}/sign-in`));
  await expect(page.getByRole("complementary")).toHaveCount(0);
  await checkPage(page, "impersonation-ended");
  const probe = await page.request.get("/_svc/client", { headers: { "x-api-key": publishableKey } });
  expect((await probe.json()).authenticated).toBe(false);
  // The password was never changed: the user still signs in with it.
  const signedIn = await page.request.post("/_svc/auth/login", { data: { email: user.email, password: user.password }, headers: { "x-api-key": publishableKey } });
  expect(signedIn.status()).toBe(200);
});
