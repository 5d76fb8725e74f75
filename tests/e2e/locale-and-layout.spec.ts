import { expect, test } from "@playwright/test";
import { checkPage, createUser, environments } from "./support/fixtures";

test.describe("Danish from the browser's languages", () => {
  test.use({ locale: "da-DK" });

  test("sign-in renders in Danish, errors included", async ({ page }) => {
    const user = await createUser("dansk");
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { level: 1, name: "Log ind" })).toBeVisible();
    await expect(page.locator("main").locator("xpath=..")).toHaveAttribute("lang", "da");
    await expect(page.getByLabel("E-mailadresse")).toBeVisible();
    await expect(page.getByRole("link", { name: "Har du glemt din adgangskode?" })).toBeVisible();
    await checkPage(page, "sign-in-da");

    await page.getByLabel("E-mailadresse").fill(user.email);
    await page.getByLabel("Adgangskode").fill("forkert-adgangskode");
    await page.getByRole("button", { name: "Log ind", exact: true }).click();
    await expect(page.getByText("E-mailadressen eller adgangskoden er forkert.")).toBeVisible();
    await checkPage(page, "sign-in-da-wrong-password");
  });
});

test("the language switcher changes the language and remembers it", async ({ page }) => {
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await page.getByRole("button", { name: "Dansk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Opret din konto" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Dansk" })).toHaveAttribute("aria-pressed", "true");
  await checkPage(page, "sign-up-da");
  await page.goto("/forgot-password");
  await expect(page.getByRole("heading", { level: 1, name: "Nulstil din adgangskode" })).toBeVisible();
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
});

test("an unknown environment gets a clear not-found page", async ({ page }) => {
  const response = await page.goto("/sign-in?pk=pk_test_doesnotexist000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Application not found" })).toBeVisible();
  await checkPage(page, "unknown-environment");
});

test.describe("on a 360 px wide phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("pages fit without sideways scrolling", async ({ page }) => {
    const { branded } = environments();
    for (const [path, name] of [
      ["/sign-in", "sign-in-360"],
      [`/sign-up?pk=${branded.publishableKey}`, "sign-up-360"],
      ["/forgot-password", "forgot-password-360"],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await checkPage(page, name);
    }
    const user = await createUser("phone");
    await page.goto("/sign-in");
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await checkPage(page, "account-360");
  });
});
