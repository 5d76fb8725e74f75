import { expect, test, type Page } from "@playwright/test";
import { checkPage, environments } from "./support/fixtures";
import { signInAsOperator } from "./support/operators";

/*
 * The dashboard's Applications and API keys pages. Everything written here happens
 * in an application this test creates: the environments other specs use are only read.
 */

function region(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

test("an admin creates an application, sees its secret key once, manages keys, origins, renames and deletes with type-to-confirm", async ({ page }) => {
  const appName = `E2E Shop ${Date.now().toString(36)}`;
  await signInAsOperator(page, "admin");
  await page.goto("/dashboard/applications");
  await expect(page.getByRole("heading", { level: 1, name: "Applications" })).toBeVisible();
  await checkPage(page, "dashboard-applications");

  // Create: the first environment's secret key is shown in this answer only.
  const create = region(page, "Create an application");
  await create.getByLabel("Application name").fill(appName);
  await create.getByRole("button", { name: "Create application" }).click();
  await expect(create.getByTestId("secret-once")).toContainText(/sk_test_/);
  await expect(page.getByRole("status").filter({ hasText: "Application created." })).toBeVisible();
  await checkPage(page, "dashboard-applications-created");
  await page.reload();
  await expect(page.getByTestId("secret-once")).toHaveCount(0);
  const app = region(page, appName);
  await expect(app.getByTestId("environment")).toHaveCount(1);

  // Its API keys page: a new secret key once, then revoked.
  await app.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByTestId("publishable-key")).toHaveText(/^pk_test_/);
  await checkPage(page, "dashboard-api-keys");
  const secrets = region(page, "Secret keys");
  await secrets.getByLabel("Label").fill("e2e worker");
  await secrets.getByRole("button", { name: "Create secret key" }).click();
  await expect(secrets.getByTestId("secret-once")).toContainText(/sk_test_/);
  await expect(secrets.getByTestId("secret-key-row")).toHaveCount(2);
  await checkPage(page, "dashboard-api-keys-secret-shown");
  await page.reload();
  await expect(page.getByTestId("secret-once")).toHaveCount(0);
  const row = region(page, "Secret keys").getByTestId("secret-key-row").filter({ hasText: "e2e worker" });
  await row.getByText("Revoke", { exact: true }).first().click();
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Secret key revoked." })).toBeVisible();
  await expect(region(page, "Secret keys").getByTestId("secret-key-row").filter({ hasText: "e2e worker" })).toContainText("Revoked");
  await checkPage(page, "dashboard-api-keys-revoked");

  // Rotate the signing key: a new active one, the old one retired.
  await region(page, "Signing keys").getByRole("button", { name: "Rotate signing key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Signing key rotated." })).toBeVisible();
  await expect(region(page, "Signing keys").getByTestId("signing-key-row")).toHaveCount(2);

  // Origins: a bad line is refused in place, a good one saved.
  const origins = region(page, "Allowed origins");
  await origins.getByRole("textbox", { name: "Allowed origins" }).fill("not an origin");
  await origins.getByRole("button", { name: "Save origins" }).click();
  await expect(origins.getByRole("alert")).not.toBeEmpty();
  await checkPage(page, "dashboard-api-keys-origins-error");
  await origins.getByRole("textbox", { name: "Allowed origins" }).fill("https://e2e-origin.example.com");
  await origins.getByRole("button", { name: "Save origins" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Allowed origins saved." })).toBeVisible();

  // At 390 px the page still works.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(region(page, "Allowed origins").getByRole("textbox", { name: "Allowed origins" })).toHaveValue("https://e2e-origin.example.com");
  await checkPage(page, "dashboard-api-keys-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Rename the environment, then delete it: the wrong name is refused.
  await page.goto("/dashboard/applications");
  const card = region(page, appName);
  const environment = card.getByTestId("environment");
  await environment.locator("summary", { hasText: "Rename" }).click();
  await environment.getByLabel("New name").fill("Staging");
  await environment.getByRole("button", { name: "Rename" }).click();
  await expect(region(page, appName).getByTestId("environment")).toContainText("Staging");
  const renamed = region(page, appName).getByTestId("environment");
  await renamed.getByText("Delete this environment", { exact: true }).click();
  await renamed.getByLabel("Type the name to confirm").fill("Staginggg");
  await renamed.getByRole("button", { name: "Delete for good" }).click();
  await expect(renamed.getByText("Type the name exactly as shown.")).toBeVisible();
  await checkPage(page, "dashboard-applications-delete-refused");
  await renamed.getByLabel("Type the name to confirm").fill("Staging");
  await renamed.getByRole("button", { name: "Delete for good" }).click();
  await expect(region(page, appName).getByTestId("environment")).toHaveCount(0);

  // And the application itself.
  const emptyApp = region(page, appName);
  await emptyApp.getByText("Delete this application", { exact: true }).click();
  await emptyApp.getByLabel("Type the name to confirm").fill(appName);
  await emptyApp.getByRole("button", { name: "Delete for good" }).click();
  await expect(region(page, appName)).toHaveCount(0);
  await checkPage(page, "dashboard-applications-deleted");
});

test("a viewer sees keys and applications but no secret and no write button", async ({ page }) => {
  const { main } = environments();
  await signInAsOperator(page, "viewer");
  await page.goto(`/dashboard/api-keys?env=${main.environmentId}`);
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByTestId("publishable-key")).toHaveText(/^pk_/);
  await expect(page.getByTestId("secret-key-row").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Create secret key" })).toHaveCount(0);
  await expect(page.getByText("Revoke", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate signing key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Save/ })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(/sk_(test|live)_[A-Za-z0-9_-]{20,}/);
  await checkPage(page, "dashboard-api-keys-viewer");
  await page.goto("/dashboard/applications");
  await expect(page.getByRole("heading", { level: 1, name: "Applications" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create application" })).toHaveCount(0);
  await expect(page.getByText("Delete this environment")).toHaveCount(0);
  await checkPage(page, "dashboard-applications-viewer");
});
