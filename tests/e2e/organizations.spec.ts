import { expect, test, type Page } from "@playwright/test";
import { BASE_URL, checkPage, createUser, environments, latestEmail, linkIn, PASSWORD, signInThroughForm, uniqueEmail } from "./support/fixtures";
import { serverApi } from "./support/server-api";

async function signInToAccount(page: Page, email: string, password: string): Promise<void> {
  await signInThroughForm(page, email, password);
  await page.waitForURL(`${BASE_URL}/account`);
}

/** An organization owned by `ownerId`, made through the Server API (the flows under test start after it exists). */
async function createOrganization(name: string, ownerId: string): Promise<{ id: string; name: string; slug: string }> {
  return serverApi(environments().main.secretKey).post<{ id: string; name: string; slug: string }>("/organizations", { name, createdBy: ownerId });
}

async function addMember(organizationId: string, userId: string, role: string): Promise<void> {
  await serverApi(environments().main.secretKey).post(`/organizations/${organizationId}/members`, { userId, role });
}

async function invite(organizationId: string, email: string): Promise<void> {
  await serverApi(environments().main.secretKey).post(`/organizations/${organizationId}/invitations`, { email, role: "member" });
}

test("owner creates an organization and invites; the invitee signs up from the link, is made admin, then leaves", async ({ page, browser }) => {
  const owner = await createUser("org-owner");
  const invitee = uniqueEmail("org-invitee");
  const name = `Analytical Engines ${invitee.slice(12, 20)}`;

  await signInToAccount(page, owner.email, owner.password);
  await page.getByRole("link", { name: "Create an organization" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create an organization" })).toBeVisible();
  await checkPage(page, "organization-new");
  await page.getByLabel("Organization name").fill(name);
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.waitForURL(/\/organizations\/[0-9a-f-]{36}$/);
  const organizationUrl = page.url();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("You are Owner in this organization.")).toBeVisible();
  await checkPage(page, "organization-owner");

  const inviteForm = page.getByRole("form", { name: "Send invitation" });
  await inviteForm.getByLabel("Email address").fill(invitee);
  await inviteForm.getByLabel("Role").selectOption("member");
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`An invitation was sent to ${invitee}.`)).toBeVisible();
  await expect(page.getByTestId("invitation").filter({ hasText: invitee })).toContainText("Member");
  await checkPage(page, "organization-invited");

  // The invitee, in a browser of their own, opens the emailed link and creates the account from it.
  const inviteeContext = await browser.newContext();
  const inviteePage = await inviteeContext.newPage();
  const link = linkIn(await latestEmail(invitee, "organization_invitation"), "/invitations/accept");
  await inviteePage.goto(link);
  await expect(inviteePage.getByRole("heading", { level: 1, name: `Join ${name}` })).toBeVisible();
  await expect(inviteePage.getByText(`The invitation is for ${invitee}.`)).toBeVisible();
  await checkPage(inviteePage, "invitation-signed-out");
  const signUp = inviteePage.getByRole("form", { name: "New here? Create your account" });
  await signUp.getByLabel("Name").fill("Grace Hopper");
  await signUp.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await signUp.getByRole("button", { name: "Create account and join" }).click();
  await inviteePage.waitForURL(organizationUrl);
  await expect(inviteePage.getByText("You are Member in this organization.")).toBeVisible();
  // A member sees no invitation controls and no member controls.
  await expect(inviteePage.getByRole("form", { name: "Send invitation" })).toHaveCount(0);
  await expect(inviteePage.getByRole("button", { name: "Change role" })).toHaveCount(0);
  await checkPage(inviteePage, "organization-member");

  // The owner makes the new member an admin.
  await page.reload();
  const member = page.getByTestId("member").filter({ hasText: "Grace Hopper" });
  await expect(member).toContainText("Member");
  await member.getByLabel("Role of Grace Hopper").selectOption("admin");
  await member.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByText("The role of Grace Hopper is now Admin.")).toBeVisible();
  await expect(member).toContainText("Admin");
  await checkPage(page, "organization-role-changed");

  // The member, now an admin, leaves; back on the account page, the organization is gone from the switcher.
  await inviteePage.reload();
  await expect(inviteePage.getByText("You are Admin in this organization.")).toBeVisible();
  await inviteePage.getByRole("button", { name: "Leave organization" }).click();
  await inviteePage.waitForURL(`${BASE_URL}/account`);
  await expect(inviteePage.getByTestId("organization")).toHaveCount(0);
  await checkPage(inviteePage, "account-after-leaving");
  await inviteePage.goto(organizationUrl);
  await expect(inviteePage.getByRole("heading", { level: 1, name: "Organization not found" })).toBeVisible();
  await checkPage(inviteePage, "organization-not-found");
  await inviteeContext.close();

  await page.reload();
  await expect(page.getByTestId("member")).toHaveCount(1);
});

test("an invitation opened while signed in as someone else offers to switch account", async ({ page }) => {
  const owner = await createUser("org-wrong-owner");
  const other = await createUser("org-wrong-other");
  const invitee = await createUser("org-wrong-invitee");
  const organization = await createOrganization("Difference Engines", owner.id);
  await invite(organization.id, invitee.email);
  const link = linkIn(await latestEmail(invitee.email, "organization_invitation"), "/invitations/accept");

  await signInToAccount(page, other.email, other.password);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "This invitation is for another account" })).toBeVisible();
  await expect(page.getByText(`You are signed in as ${other.email}; this invitation is for ${invitee.email}.`)).toBeVisible();
  await checkPage(page, "invitation-wrong-account");

  await page.getByRole("button", { name: "Sign out and switch account" }).click();
  await page.waitForURL(/\/sign-in/);
  await page.getByLabel("Email address").fill(invitee.email);
  await page.getByLabel("Password", { exact: true }).fill(invitee.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/invitations\/accept\?/);
  await expect(page.getByRole("heading", { level: 1, name: "Join Difference Engines" })).toBeVisible();
  await checkPage(page, "invitation-invitee");
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await page.waitForURL(`${BASE_URL}/organizations/${organization.id}`);
  await expect(page.getByText("You are Member in this organization.")).toBeVisible();
});

test("owner renames the organization, an invalid slug is refused, deletion needs the typed slug; a member sees no settings", async ({ page, browser }) => {
  const owner = await createUser("org-settings-owner");
  const member = await createUser("org-settings-member");
  const suffix = owner.email.slice(19, 25);
  const organization = await createOrganization(`Lovelace Labs ${suffix}`, owner.id);
  await addMember(organization.id, member.id, "member");
  const organizationUrl = `${BASE_URL}/organizations/${organization.id}`;

  // A member without org:settings:manage gets neither the settings nor the delete form.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signInToAccount(memberPage, member.email, member.password);
  await memberPage.goto(organizationUrl);
  await expect(memberPage.getByText("You are Member in this organization.")).toBeVisible();
  await expect(memberPage.getByRole("region", { name: "Settings" })).toHaveCount(0);
  await expect(memberPage.getByRole("form", { name: "Delete organization" })).toHaveCount(0);
  await checkPage(memberPage, "organization-settings-member");
  await memberContext.close();

  await signInToAccount(page, owner.email, owner.password);
  await page.goto(organizationUrl);
  const settings = page.getByRole("form", { name: "Settings" });
  await expect(settings.getByLabel("Organization name")).toHaveValue(organization.name);
  await expect(settings.getByLabel("Slug")).toHaveValue(organization.slug);
  await checkPage(page, "organization-settings");

  const renamed = `Analytical Society ${suffix}`;
  await settings.getByLabel("Organization name").fill(renamed);
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("The settings were saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();
  await checkPage(page, "organization-settings-saved");

  await settings.getByLabel("Slug").fill("Not A Slug");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("Use lower-case letters and digits, separated by single hyphens, e.g. acme-inc.")).toBeVisible();
  await expect(settings.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, "organization-settings-invalid-slug");
  await page.reload();
  await expect(settings.getByLabel("Slug")).toHaveValue(organization.slug);

  const deletion = page.getByRole("form", { name: "Delete organization" });
  const confirmation = deletion.getByLabel(`To confirm, type the organization's slug: ${organization.slug}`);
  await confirmation.fill(renamed);
  await deletion.getByRole("button", { name: "Delete organization" }).click();
  await expect(deletion.getByText("Type the slug exactly as shown in the label.")).toBeVisible();
  await checkPage(page, "organization-delete-refused");

  await confirmation.fill(organization.slug);
  await deletion.getByRole("button", { name: "Delete organization" }).click();
  await page.waitForURL(`${BASE_URL}/account?organizationDeleted=1`);
  await expect(page.getByText("The organization was deleted.")).toBeVisible();
  await expect(page.getByTestId("organization").filter({ hasText: renamed })).toHaveCount(0);
  await checkPage(page, "account-organization-deleted");
  await page.goto(organizationUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Organization not found" })).toBeVisible();
});

test("the account page's switcher makes an organization active, then none", async ({ page }) => {
  const user = await createUser("org-switcher");
  await createOrganization("Jacquard Looms", user.id);
  await createOrganization("Babbage & Co", user.id);
  await signInToAccount(page, user.email, user.password);
  const switcher = page.getByRole("region", { name: "Organizations" });
  await expect(switcher.getByTestId("organization")).toHaveCount(2);
  await expect(switcher.getByText("No active organization")).toBeVisible();
  await checkPage(page, "account-organizations");

  await switcher.getByRole("button", { name: "Make active: Jacquard Looms" }).click();
  await expect(page.getByText("The active organization has changed.")).toBeVisible();
  const active = switcher.getByTestId("organization").filter({ hasText: "Jacquard Looms" });
  await expect(active).toHaveAttribute("data-active", "true");
  await expect(active).toContainText("Active");
  await checkPage(page, "account-organization-active");

  await switcher.getByRole("button", { name: "Use no organization" }).click();
  await expect(page.getByText("No organization is active now.")).toBeVisible();
  await expect(switcher.getByTestId("organization").and(page.locator("[data-active]"))).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the delete form checks the typed slug on the server", async ({ page }) => {
    const owner = await createUser("org-settings-nojs");
    const organization = await createOrganization(`Difference Engine ${owner.email.slice(18, 24)}`, owner.id);
    await signInToAccount(page, owner.email, owner.password);
    await page.goto(`/organizations/${organization.id}`);
    const deletion = page.getByRole("form", { name: "Delete organization" });
    await deletion.getByLabel(/^To confirm, type the organization's slug/).fill("not-it");
    await deletion.getByRole("button", { name: "Delete organization" }).click();
    await expect(page.getByText("Type the slug exactly as shown in the label.")).toBeVisible();
    await checkPage(page, "organization-delete-refused-no-js", { axe: false });
    await page.getByRole("form", { name: "Delete organization" }).getByLabel(/^To confirm/).fill(organization.slug);
    await page.getByRole("form", { name: "Delete organization" }).getByRole("button", { name: "Delete organization" }).click();
    await page.waitForURL(`${BASE_URL}/account?organizationDeleted=1`);
    await expect(page.getByText("The organization was deleted.")).toBeVisible();
  });
});

test.describe("Danish from the browser's languages", () => {
  test.use({ locale: "da-DK" });

  test("the invitation landing page renders in Danish", async ({ page }) => {
    const owner = await createUser("org-da-owner");
    const invitee = uniqueEmail("org-da-invitee");
    const organization = await createOrganization("Regnemaskiner", owner.id);
    await invite(organization.id, invitee);
    await page.goto(linkIn(await latestEmail(invitee, "organization_invitation"), "/invitations/accept"));
    await expect(page.getByRole("heading", { level: 1, name: "Bliv medlem af Regnemaskiner" })).toBeVisible();
    await expect(page.getByText(`Invitationen er til ${invitee}.`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Opret konto og bliv medlem" })).toBeVisible();
    await checkPage(page, "invitation-da");
  });
});
