import { expect, type Page } from "@playwright/test";
import type { OperatorRole } from "@/lib/operation/caller";
import { environments } from "./fixtures";

/**
 * Signs the page's browser in to the dashboard as the prepared operator of `role`
 * (prepare-server.ts) and waits for the overview: the screens' tests start here.
 */
export async function signInAsOperator(page: Page, role: OperatorRole): Promise<{ email: string }> {
  const { email, password } = environments().operators[role];
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return { email };
}
