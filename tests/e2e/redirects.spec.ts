import { expect, test } from "@playwright/test";
import { ALLOWED_ORIGIN, BASE_URL, createUser, signInThroughForm } from "./support/fixtures";

// The main environment has no home URL, so the fallback is the hosted account page.
const FALLBACK = `${BASE_URL}/account`;

const ATTEMPTS = [
  "//evil.com",
  "https://evil.com@localhost:3311/account",
  "https://localhost:3311.evil.com/",
  "javascript:alert(document.domain)",
  "/\\evil.com",
  "/%2F%2Fevil.com",
  "HTTPS://EVIL.COM/",
  "http://127.0.0.1.evil.com/",
];

test("open-redirect attempts land on the fallback, an allowed origin is honoured", async ({ page }) => {
  const user = await createUser("redirects");
  // Through the form, the first time.
  await signInThroughForm(page, user.email, user.password, `?redirect_url=${encodeURIComponent("//evil.com")}`);
  await page.waitForURL(FALLBACK);

  // Signed in, sign-in sends straight on: each attempt must end on the fallback.
  for (const attempt of ATTEMPTS) {
    await page.goto(`/sign-in?redirect_url=${encodeURIComponent(attempt)}`);
    await page.waitForURL(FALLBACK);
    expect(page.url(), attempt).toBe(FALLBACK);
  }

  const allowed = `${ALLOWED_ORIGIN}/dev/mailbox?from=redirect-test`;
  await page.goto(`/sign-in?redirect_url=${encodeURIComponent(allowed)}`);
  await page.waitForURL(allowed);
  expect(page.url()).toBe(allowed);
});
