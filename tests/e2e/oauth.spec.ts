import { expect, test, type Page } from "@playwright/test";
import { ageSignIn } from "./support/database";
import { ALLOWED_ORIGIN, BASE_URL, checkPage, createUser, environments, latestEmail, signInThroughForm } from "./support/fixtures";
import { cancelAtProvider, offlineProviderPages, PROVIDER_NAME, providerAccount, throughProvider } from "./support/oauth";
import { e2eRun } from "./support/run-settings";
import { turnOnTwoStep } from "./support/two-step";

/**
 * Sign-in with the loopback OpenID provider global-setup started: Chromium follows
 * the "Continue with" link, fills the provider's own login and consent pages, and
 * comes back through our callback.
 */
test.beforeEach(async ({ page }) => {
  await offlineProviderPages(page);
});

function connectedAccounts(page: Page) {
  return page.getByRole("region", { name: "Connected accounts" });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out of this device" }).click();
  await page.waitForURL(/\/sign-in/);
}

test("Continue with the provider: a new user, signed in on the account page; back again later as the same user, to the redirect", async ({ page }) => {
  const account = providerAccount("oauth-new");
  await page.goto("/sign-in");
  const button = page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` });
  await expect(button).toBeVisible();
  await expect(page.getByRole("list", { name: "Sign in with another account" })).toBeVisible();
  await checkPage(page, "sign-in-with-provider");

  await throughProvider(page, button, account.login);
  await page.waitForURL(`${BASE_URL}/account`);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText(account.email).first()).toBeVisible();
  const identity = connectedAccounts(page).getByTestId("identity");
  await expect(identity).toHaveCount(1);
  await expect(identity).toContainText(`${PROVIDER_NAME} (${account.email})`);
  await checkPage(page, "account-after-provider-sign-up");

  // A returning user: the provider still knows this browser and asks nothing; the same user, the same identity.
  await signOut(page);
  const target = `${ALLOWED_ORIGIN}/dev/mailbox?to=${encodeURIComponent(account.email)}`;
  await page.goto(`/sign-in?redirect_url=${encodeURIComponent(target)}`);
  expect(await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login)).toBe(0);
  await page.waitForURL(target);
  expect(page.url()).toBe(target);

  await page.goto("/account");
  await expect(page.getByText(account.email).first()).toBeVisible();
  await expect(connectedAccounts(page).getByTestId("identity")).toHaveCount(1);
  await expect(connectedAccounts(page).getByTestId("identity")).toContainText("Last sign-in");
});

test("a returning user in a new browser signs in at the provider again and is the same user", async ({ browser, page }) => {
  const account = providerAccount("oauth-return");
  await page.goto("/sign-in");
  await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login);
  await page.waitForURL(`${BASE_URL}/account`);

  const other = await browser.newContext({ baseURL: BASE_URL });
  try {
    const second = await other.newPage();
    await offlineProviderPages(second);
    await second.goto("/sign-in");
    // A new browser: the provider asks again who this is.
    expect(await throughProvider(second, second.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login)).toBeGreaterThan(0);
    await second.waitForURL(`${BASE_URL}/account`);
    await expect(second.getByText(account.email).first()).toBeVisible();
    // Both browsers hold a session of one user: the second sees the first's identity, not a new one.
    await expect(connectedAccounts(second).getByTestId("identity")).toHaveCount(1);
  } finally {
    await other.close();
  }
});

test("cancelled at the provider: the error page says so and leads back to sign in", async ({ page }) => {
  await page.goto("/sign-in");
  await cancelAtProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }));
  await expect(page).toHaveURL(/\/oauth-error\?/);
  expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
  await expect(page.getByRole("heading", { level: 1, name: "Signing in did not work" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Signing in did not work" }).getByRole("alert")).toHaveText("The sign-in was cancelled at the provider.");
  await checkPage(page, "oauth-error");
  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
});

test("connect the provider from the account page, see it listed, disconnect it", async ({ page }) => {
  const user = await createUser("oauth-link");
  const account = providerAccount("oauth-link");
  await signInThroughForm(page, user.email, user.password);
  await page.waitForURL(`${BASE_URL}/account`);
  const section = connectedAccounts(page);
  await expect(section).toContainText("No accounts are connected.");
  await checkPage(page, "account-connected-accounts-none");

  await throughProvider(page, section.getByRole("button", { name: `Connect ${PROVIDER_NAME}` }), account.login);
  await page.waitForURL((url) => url.origin === BASE_URL && url.pathname === "/account");
  await expect(section.getByRole("status").filter({ hasText: `${PROVIDER_NAME} is connected.` })).toBeVisible();
  const identity = section.getByTestId("identity");
  await expect(identity).toHaveCount(1);
  await expect(identity).toContainText(`${PROVIDER_NAME} (${account.email})`);
  await expect(identity).toContainText("Not used to sign in yet");
  await checkPage(page, "account-connected-accounts");
  await latestEmail(user.email, "account_connected");

  await section.getByRole("button", { name: `Disconnect: ${PROVIDER_NAME} (${account.email})` }).click();
  await expect(section.getByText("The account is disconnected.")).toBeVisible();
  await expect(identity).toHaveCount(0);
  await expect(section).toContainText("No accounts are connected.");
  await checkPage(page, "account-connected-accounts-removed");
  await latestEmail(user.email, "account_disconnected");
});

test("connecting after the recent-sign-in window confirms the password first, then goes to the provider", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const user = await createUser("oauth-stale");
  const account = providerAccount("oauth-stale");
  await signInThroughForm(page, user.email, user.password);
  await page.waitForURL(`${BASE_URL}/account`);
  await ageSignIn(user.id, 3600);
  await page.reload();
  const section = connectedAccounts(page);
  await expect(section.getByText("To connect an account, confirm it's you first.")).toBeVisible();
  await checkPage(page, "account-connected-accounts-reverify-first");

  await section.getByRole("link", { name: `Connect ${PROVIDER_NAME}` }).click();
  await expect(page).toHaveURL(/\/account\?(.*&)?reverify=1/);
  const confirm = page.getByRole("form", { name: "Confirm it's you" });
  await confirm.getByLabel("Password").fill(user.password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();

  await expect(section.getByText("To connect an account, confirm it's you first.")).toHaveCount(0);
  await throughProvider(page, section.getByRole("button", { name: `Connect ${PROVIDER_NAME}` }), account.login);
  await expect(section.getByRole("status").filter({ hasText: `${PROVIDER_NAME} is connected.` })).toBeVisible();
  await expect(section.getByTestId("identity")).toContainText(account.email);
});

test("a user with only the provider confirms it's them by signing in at the provider again", async ({ page }) => {
  test.skip(!e2eRun().databaseUrl, "ages the session in the database, which the server holds open under PGlite");
  const account = providerAccount("oauth-reverify");
  await page.goto("/sign-in");
  await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login);
  await page.waitForURL(`${BASE_URL}/account`);
  const me = (await (await page.request.get("/_svc/users/me")).json()) as { id: string };
  await ageSignIn(me.id, 3600);

  await page.goto("/account?reverify=1#reverify");
  const reverify = page.getByRole("region", { name: "Confirm it's you" });
  await expect(reverify).toContainText("For your security, sign in again with your connected account before you make this change.");
  await expect(reverify.getByLabel("Password")).toHaveCount(0);
  await checkPage(page, "account-reverify-with-provider");
  // The provider is asked for a fresh sign-in: it shows its login form although it knows this browser.
  expect(await throughProvider(page, reverify.getByRole("link", { name: `Confirm with ${PROVIDER_NAME}` }), account.login)).toBeGreaterThan(0);
  await expect(page.getByText("Thank you. You can make the change now.")).toBeVisible();
  await checkPage(page, "account-reverified-with-provider");
});

test("an MFA user who connected the provider still owes the second factor after Continue with", async ({ page }) => {
  const user = await createUser("oauth-mfa");
  const account = providerAccount("oauth-mfa");
  await signInThroughForm(page, user.email, user.password);
  await page.waitForURL(`${BASE_URL}/account`);
  await turnOnTwoStep(page);
  await page.getByRole("button", { name: "I have saved my codes" }).click();

  await throughProvider(page, connectedAccounts(page).getByRole("button", { name: `Connect ${PROVIDER_NAME}` }), account.login);
  await page.waitForURL((url) => url.origin === BASE_URL && url.pathname === "/account");
  await expect(connectedAccounts(page).getByTestId("identity")).toHaveCount(1);

  await signOut(page);
  await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login);
  await page.waitForURL(/\/second-factor/);
  await expect(page.getByRole("heading", { level: 1, name: "Two-step verification" })).toBeVisible();
  await checkPage(page, "second-factor-after-provider");
  // Not signed in: the account page sends the browser to sign in.
  await page.goto("/account");
  await page.waitForURL(/\/sign-in/);
});

test.describe("an environment that requires consent to its terms", () => {
  test("the provider's new user accepts the terms on the continuation page, then is signed in", async ({ page }) => {
    const { consenting } = environments();
    const account = providerAccount("oauth-consent");
    await page.goto(`/sign-in?pk=${consenting.publishableKey}`);
    await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login);

    await expect(page).toHaveURL(/\/sign-up\/continue\?/);
    await expect(page.getByRole("heading", { level: 1, name: "Finish creating your account" })).toBeVisible();
    await expect(page.getByText(`You signed in with ${PROVIDER_NAME}. Accept the terms of Meadow Clinic to create your account.`)).toBeVisible();
    await expect(page.getByText(`Your account will use ${account.email}.`)).toBeVisible();
    await expect(page.getByRole("link", { name: /terms of service/ })).toHaveAttribute("href", "https://meadow.example/terms");
    await checkPage(page, "oauth-sign-up-continue");

    await page.getByRole("button", { name: "Accept and create account" }).click();
    await expect(page.getByText("Tick the box to accept the terms.")).toBeVisible();
    await checkPage(page, "oauth-sign-up-continue-error");
    await page.getByLabel(/I have read and accept/).check();
    await page.getByRole("button", { name: "Accept and create account" }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    expect(new URL(page.url()).searchParams.get("pk")).toBe(consenting.publishableKey);
    await expect(page.getByText(account.email).first()).toBeVisible();

    // Finished: the continuation link is spent.
    await page.goBack();
    await page.reload();
    await expect(page.getByText("This sign-up has expired, was already finished or was started in another browser. Start again from the sign-in page.")).toBeVisible();
    await checkPage(page, "oauth-sign-up-continue-finished");
  });

  test.describe("in Danish", () => {
    test.use({ locale: "da-DK" });

    test("the continuation page and the error page", async ({ page }) => {
      const { consenting } = environments();
      const account = providerAccount("oauth-consent-da");
      await page.goto(`/sign-in?pk=${consenting.publishableKey}`);
      await throughProvider(page, page.getByRole("link", { name: `Fortsæt med ${PROVIDER_NAME}` }), account.login);
      await expect(page).toHaveURL(/\/sign-up\/continue\?/);
      await expect(page.getByRole("heading", { level: 1, name: "Gør din konto færdig" })).toBeVisible();
      await checkPage(page, "oauth-sign-up-continue-da");
      await page.getByLabel(/Jeg har læst og accepterer/).check();
      await page.getByRole("button", { name: "Accepter og opret konto" }).click();
      await page.waitForURL((url) => url.pathname === "/account");

      await page.goto(`/oauth-error?error=access_denied&pk=${consenting.publishableKey}`);
      await expect(page.getByRole("heading", { level: 1, name: "Login lykkedes ikke" })).toBeVisible();
      await checkPage(page, "oauth-error-da");
    });
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the whole sign-up through the provider and the continuation page is plain links and form posts", async ({ page }) => {
      const { consenting } = environments();
      const account = providerAccount("oauth-nojs");
      await page.goto(`/sign-in?pk=${consenting.publishableKey}`);
      await throughProvider(page, page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` }), account.login);
      await expect(page).toHaveURL(/\/sign-up\/continue\?/);
      await page.getByRole("button", { name: "Accept and create account" }).click();
      await expect(page.getByText("Tick the box to accept the terms.")).toBeVisible();
      await checkPage(page, "oauth-sign-up-continue-no-js-error", { axe: false });
      await page.getByLabel(/I have read and accept/).check();
      await page.getByRole("button", { name: "Accept and create account" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      await expect(page.getByText(account.email).first()).toBeVisible();
    });
  });
});
