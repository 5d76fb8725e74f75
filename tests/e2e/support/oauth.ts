import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";

/**
 * The loopback OpenID provider global-setup starts for the whole run (one for every
 * spec) and adds, with this id and name, to the main and the consenting environments.
 * Any login typed into its form is an account with the verified email `{login}@idp.example`.
 */
export const PROVIDER_ID = "idp";
export const PROVIDER_NAME = "Loopback ID";

/** A fresh account at the provider: its login (the `sub`) and the address it asserts. */
export function providerAccount(label: string): { login: string; email: string } {
  const login = `${label}-${randomBytes(4).toString("hex")}`;
  return { login, email: `${login}@idp.example` };
}

/** The provider's pages load a web font from the internet, which this machine has not: refuse it at once. */
export async function offlineProviderPages(page: Page): Promise<void> {
  await page.context().route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) => route.abort());
}

/** The provider's origin, which global-setup hands to the workers through the environment. */
function atProvider(url: URL): boolean {
  const issuer = process.env.GH_E2E_IDP_ISSUER;
  if (!issuer) throw new Error("no loopback provider: GH_E2E_IDP_ISSUER is set by global-setup");
  return url.origin === new URL(issuer).origin;
}

/** Somewhere new after `from`: a page of the provider that asks something, or any page of ours. */
function arrived(from: string) {
  return (url: URL) => url.toString() !== from && (!atProvider(url) || url.pathname.startsWith("/interaction/"));
}

/**
 * Presses `start` (a "Continue with" or "Connect" link), then at the provider types
 * the login and any password into its sign-in form and presses "Continue" on its
 * consent page, as a person does; returns once the provider has sent the browser
 * back to us. A provider that still knows this browser (signed in, consent given)
 * asks nothing and is passed straight through. Answers how many of its pages the provider showed.
 */
export async function throughProvider(page: Page, start: Locator, login: string): Promise<number> {
  let from = page.url();
  await start.click();
  for (let step = 0; step < 3; step += 1) {
    await page.waitForURL(arrived(from));
    if (!atProvider(new URL(page.url()))) return step;
    from = page.url();
    const loginField = page.locator('input[name="login"]');
    if (await loginField.isVisible()) {
      await loginField.fill(login);
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
    }
  }
  throw new Error(`still at the provider: ${page.url()}`);
}

/** Presses `start`, then the "[ Cancel ]" link on the provider's sign-in page: the provider answers access_denied. */
export async function cancelAtProvider(page: Page, start: Locator): Promise<void> {
  const from = page.url();
  await start.click();
  await page.waitForURL(arrived(from));
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await page.waitForURL((url) => !atProvider(url));
}
