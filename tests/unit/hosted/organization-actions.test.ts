import { and, eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { organizationInvitations, organizationMemberships, organizations, sessions } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/crypto/tokens";
import OrganizationPage from "@/app/(hosted)/organizations/[organizationId]/page";
import InvitationAcceptPage, { generateMetadata as invitationAcceptMetadata } from "@/app/(hosted)/invitations/accept/page";
import {
  acceptInvitationAction,
  createOrganizationAction,
  deleteOrganizationAction,
  invitationsAction,
  inviteAction,
  leaveOrganizationAction,
  membersAction,
  organizationSettingsAction,
  setActiveOrganizationAction,
  signUpFromInvitationAction,
} from "@/lib/hosted/actions/organizations";
import { IDLE_STATE, type FormState } from "@/lib/hosted/form-state";
import { checkDeletionConfirmation } from "@/lib/organizations/deletion-confirmation";
import { SESSION_COOKIE } from "@/lib/sessions/cookies";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../../helpers/fixtures";
import { orRedirect, pageBrowser, signIn } from "../../helpers/hosted-page-browser";

/* The hosted organization actions and pages end to end against the database: next/headers is the one thing stood in for. */

vi.mock("next/headers", () => import("../../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

type Env = Awaited<ReturnType<typeof newEnvironment>>;

function form(env: Env, fields: Record<string, string>): FormData {
  const data = new FormData();
  data.set("pk", env.publishableKey);
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** Runs an action; a redirect (Next's signal) answers its target instead of a state. */
function submit(action: (state: FormState, data: FormData) => Promise<FormState>, data: FormData): Promise<FormState | { redirect: string }> {
  return orRedirect(() => action(IDLE_STATE, data));
}

async function person(env: Env, email = uniqueEmail()) {
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD, firstName: "Ada" });
  const { token } = await openSession(env.environmentId, user.id);
  return { id: user.id, email, token };
}

async function organizationWith(env: Env, members: { id: string; role: string }[]) {
  const [org] = await getDb()
    .insert(organizations)
    .values({ environmentId: env.environmentId, name: "Nordlys Research", slug: `nordlys-${Math.random().toString(36).slice(2, 8)}` })
    .returning();
  if (!org) throw new Error("no organization");
  for (const member of members) {
    await getDb().insert(organizationMemberships).values({ environmentId: env.environmentId, organizationId: org.id, userId: member.id, role: member.role });
  }
  return org.id;
}

/** An organization with an owner and a plain member, each with a session. */
async function ownerAndMember(env: Env) {
  const owner = await person(env);
  const member = await person(env);
  const orgId = await organizationWith(env, [
    { id: owner.id, role: "owner" },
    { id: member.id, role: "member" },
  ]);
  return { owner, member, orgId };
}

/** A pending invitation: its API `token` (the inviter's) and its mail `ticket` (the emailed link's). */
async function invite(env: Env, organizationId: string, email: string) {
  const secrets = { token: randomToken(), ticket: randomToken() };
  await getDb()
    .insert(organizationInvitations)
    .values({
      environmentId: env.environmentId,
      organizationId,
      email,
      role: "admin",
      tokenHash: sha256(secrets.token),
      ticketHash: sha256(secrets.ticket),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
  return secrets;
}

/** An organization of one owner, and a pending invitation (its token and ticket) for another person, who has an account. */
async function invitedPerson(env: Env) {
  const owner = await person(env);
  const invitee = await person(env, uniqueEmail("invitee"));
  const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
  return { owner, invitee, orgId, ...(await invite(env, orgId, invitee.email)) };
}

async function roleOf(organizationId: string, userId: string) {
  const [row] = await getDb()
    .select({ role: organizationMemberships.role })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, userId)));
  return row?.role ?? null;
}

beforeEach(() => signIn(null));

describe("the invitation landing page's actions", () => {
  it("creates the invitee's account from the ticket, signs them in and lands them on the organization as a member", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
    const email = uniqueEmail("invitee");
    const { ticket } = await invite(env, orgId, email);
    const answer = await submit(signUpFromInvitationAction, form(env, { token: ticket, name: "Grace Hopper", password: STRONG_PASSWORD }));
    expect(answer).toEqual({ redirect: `/organizations/${orgId}?pk=${env.publishableKey}` });
    expect(pageBrowser.jar.get(SESSION_COOKIE)).toBeTruthy();
    const [invitation] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.ticketHash, sha256(ticket)));
    expect(invitation?.status).toBe("accepted");
    expect(await roleOf(orgId, invitation?.acceptedBy ?? "")).toBe("admin");
  });

  it("refuses a weak password next to its field, and a used ticket with its own message", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
    const { token, ticket } = await invite(env, orgId, uniqueEmail("invitee"));
    const weak = (await submit(signUpFromInvitationAction, form(env, { token: ticket, password: "short" }))) as FormState;
    expect(weak.fieldErrors.password).toBeTruthy();
    // The inviter's API token is no ticket: it creates no account.
    const withToken = (await submit(signUpFromInvitationAction, form(env, { token, password: STRONG_PASSWORD }))) as FormState;
    expect(withToken.status).toBe("error");
    expect(pageBrowser.jar.get(SESSION_COOKIE)).toBeUndefined();
    await submit(signUpFromInvitationAction, form(env, { token: ticket, password: STRONG_PASSWORD }));
    signIn(null);
    const again = (await submit(signUpFromInvitationAction, form(env, { token: ticket, password: STRONG_PASSWORD }))) as FormState;
    expect(again.message).toBe("This invitation has already been accepted.");
  });

  it("regression: a link that opens nothing (unknown or expired) says the link is not valid, not that an item no longer exists", async () => {
    const env = await newEnvironment();
    const { invitee, token, ticket } = await invitedPerson(env);
    await getDb().update(organizationInvitations).set({ expiresAt: new Date(0) }).where(eq(organizationInvitations.ticketHash, sha256(ticket)));
    const linkInvalid = "This invitation link is not valid or has expired. Ask for a new one.";
    expect(((await submit(signUpFromInvitationAction, form(env, { token: "no-such-ticket", password: STRONG_PASSWORD }))) as FormState).message).toBe(linkInvalid);
    expect(((await submit(signUpFromInvitationAction, form(env, { token: ticket, password: STRONG_PASSWORD }))) as FormState).message).toBe(linkInvalid);
    signIn(invitee.token);
    expect(((await submit(acceptInvitationAction, form(env, { token }))) as FormState).message).toBe(linkInvalid);
  });

  it("accepts as the invitee, and tells another account it is the wrong one", async () => {
    const env = await newEnvironment();
    const { owner, invitee, orgId, token } = await invitedPerson(env);
    signIn(owner.token);
    const wrong = (await submit(acceptInvitationAction, form(env, { token }))) as FormState;
    expect(wrong.message).toBe("This invitation is for another address. Switch account to accept it.");
    signIn(invitee.token);
    expect(await submit(acceptInvitationAction, form(env, { token }))).toEqual({ redirect: `/organizations/${orgId}?pk=${env.publishableKey}` });
    expect(await roleOf(orgId, invitee.id)).toBe("admin");
  });
});

describe("creating and switching", () => {
  it("creates an organization with the caller as owner, goes to its page, and makes it active or none", async () => {
    const env = await newEnvironment();
    const ada = await person(env);
    signIn(ada.token);
    const created = (await submit(createOrganizationAction, form(env, { name: "Fjord Labs" }))) as { redirect: string };
    const orgId = /^\/organizations\/([0-9a-f-]{36})\?/.exec(created.redirect)?.[1] ?? "";
    expect(await roleOf(orgId, ada.id)).toBe("owner");
    const activeOf = async () => (await getDb().select({ id: sessions.activeOrganizationId }).from(sessions).where(eq(sessions.userId, ada.id)))[0]?.id;
    expect(await submit(setActiveOrganizationAction, form(env, { organizationId: orgId }))).toMatchObject({ status: "success", message: "The active organization has changed." });
    expect(await activeOf()).toBe(orgId);
    expect(await submit(setActiveOrganizationAction, form(env, { organizationId: "" }))).toMatchObject({ status: "success", message: "No organization is active now." });
    expect(await activeOf()).toBeNull();
  });

  it("refuses an empty name next to its field, and an organization the caller is not in", async () => {
    const env = await newEnvironment();
    const ada = await person(env);
    const grace = await person(env);
    const theirs = await organizationWith(env, [{ id: grace.id, role: "owner" }]);
    signIn(ada.token);
    expect(((await submit(createOrganizationAction, form(env, { name: " " }))) as FormState).fieldErrors.name).toBeTruthy();
    expect(await submit(setActiveOrganizationAction, form(env, { organizationId: theirs }))).toMatchObject({ status: "error" });
  });
});

describe("the organization page's actions", () => {
  it("lets an owner change a role and remove a member; a member can do neither, but can leave", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const admin = await person(env);
    const member = await person(env);
    const orgId = await organizationWith(env, [
      { id: owner.id, role: "owner" },
      { id: admin.id, role: "admin" },
      { id: member.id, role: "member" },
    ]);
    signIn(member.token);
    const refused = (await submit(membersAction, form(env, { organizationId: orgId, intent: `remove:${admin.id}` }))) as FormState;
    expect(refused.message).toBe("You are not allowed to do this in this organization.");
    expect(await roleOf(orgId, admin.id)).toBe("admin");

    signIn(owner.token);
    const changed = await submit(membersAction, form(env, { organizationId: orgId, intent: `role:${admin.id}`, [`role:${admin.id}`]: "member", [`name:${admin.id}`]: "Grace" }));
    expect(changed).toMatchObject({ status: "success", message: "The role of Grace is now Member." });
    expect(await roleOf(orgId, admin.id)).toBe("member");
    expect(await submit(membersAction, form(env, { organizationId: orgId, intent: `remove:${admin.id}`, [`name:${admin.id}`]: "Grace" }))).toMatchObject({
      status: "success",
    });
    expect(await roleOf(orgId, admin.id)).toBeNull();

    const lastOwner = (await submit(leaveOrganizationAction, form(env, { organizationId: orgId, userId: owner.id }))) as FormState;
    expect(lastOwner.message).toBe("An organization needs an owner: make someone else owner first.");

    signIn(member.token);
    expect(await submit(leaveOrganizationAction, form(env, { organizationId: orgId, userId: member.id }))).toEqual({ redirect: `/account?pk=${env.publishableKey}` });
    expect(await roleOf(orgId, member.id)).toBeNull();
  });

  it("invites, resends and revokes; a member without the permission cannot invite", async () => {
    const env = await newEnvironment();
    const { owner, member, orgId } = await ownerAndMember(env);
    const email = uniqueEmail("invitee");
    signIn(member.token);
    expect(await submit(inviteAction, form(env, { organizationId: orgId, email, role: "member" }))).toMatchObject({ status: "error" });

    signIn(owner.token);
    expect(await submit(inviteAction, form(env, { organizationId: orgId, email, role: "member" }))).toMatchObject({
      status: "success",
      message: `An invitation was sent to ${email}.`,
    });
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, orgId));
    if (!row) throw new Error("no invitation");
    expect(await submit(invitationsAction, form(env, { organizationId: orgId, intent: `resend:${row.id}` }))).toMatchObject({ status: "success" });
    expect(await submit(invitationsAction, form(env, { organizationId: orgId, intent: `revoke:${row.id}` }))).toMatchObject({
      status: "success",
      message: `The invitation to ${email} was revoked.`,
    });
    const [revoked] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, row.id));
    expect(revoked?.status).toBe("revoked");
    expect(await submit(invitationsAction, form(env, { organizationId: orgId, intent: "explode" }))).toMatchObject({ status: "error" });
  });
});

async function organizationRow(organizationId: string) {
  const [row] = await getDb().select().from(organizations).where(eq(organizations.id, organizationId));
  return row ?? null;
}

describe("the organization settings actions", () => {
  it("saves name, slug and logo for an owner; shows a bad slug, a bad logo URL and a taken slug next to their fields", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
    const taken = (await organizationRow(await organizationWith(env, [])))?.slug ?? "";
    signIn(owner.token);
    const settings = (fields: Record<string, string>) => submit(organizationSettingsAction, form(env, { organizationId: orgId, ...fields }));

    const saved = await settings({ name: " Nordlys Labs ", slug: "nordlys-labs", logoUrl: "https://cdn.example.com/n.png" });
    expect(saved).toMatchObject({ status: "success", message: "The settings were saved." });
    expect(await organizationRow(orgId)).toMatchObject({ name: "Nordlys Labs", slug: "nordlys-labs", logoUrl: "https://cdn.example.com/n.png" });
    await settings({ name: "Nordlys Labs", slug: "nordlys-labs", logoUrl: "" });
    expect((await organizationRow(orgId))?.logoUrl).toBeNull();

    const bad = (await settings({ name: "", slug: "Nordlys Labs", logoUrl: "javascript:alert(1)" })) as FormState;
    expect(bad.fieldErrors).toEqual({
      name: "Fill in this field.",
      slug: "Use lower-case letters and digits, separated by single hyphens, e.g. acme-inc.",
      logoUrl: "Enter an address starting with https:// or http://, or leave the field empty.",
    });
    expect(bad.values).toEqual({ name: "", slug: "Nordlys Labs", logoUrl: "javascript:alert(1)" });
    const clash = (await settings({ name: "Nordlys Labs", slug: taken, logoUrl: "" })) as FormState;
    expect(clash.fieldErrors).toEqual({ slug: "Another organization already uses this slug." });
    expect(await organizationRow(orgId)).toMatchObject({ name: "Nordlys Labs", slug: "nordlys-labs" });
    // A NUL in a form field is refused like bad input, before Postgres sees it.
    const nul = (await settings({ name: "Nordlys\u0000Labs", slug: "nordlys-labs", logoUrl: "" })) as FormState;
    expect(nul).toMatchObject({ status: "error", message: expect.stringMatching(/cannot be used/) });
    expect(await organizationRow(orgId)).toMatchObject({ name: "Nordlys Labs" });
  });

  it("refuses a member without org:settings:manage, with the forbidden message, for saving and deleting", async () => {
    const env = await newEnvironment();
    const { member, orgId } = await ownerAndMember(env);
    const slug = (await organizationRow(orgId))?.slug ?? "";
    signIn(member.token);
    const forbidden = "You are not allowed to do this in this organization.";
    expect(await submit(organizationSettingsAction, form(env, { organizationId: orgId, name: "Mine", slug: "mine", logoUrl: "" }))).toMatchObject({ message: forbidden });
    expect(await submit(deleteOrganizationAction, form(env, { organizationId: orgId, confirmation: slug }))).toMatchObject({ message: forbidden });
    expect(await organizationRow(orgId)).toMatchObject({ name: "Nordlys Research", slug });
  });

  it("deletes only once the slug is typed: a wrong one is refused next to the field; the right one deletes and goes to the account page with a notice", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
    const slug = (await organizationRow(orgId))?.slug ?? "";
    signIn(owner.token);
    for (const confirmation of ["", "Nordlys Research", slug.toUpperCase(), `${slug}x`]) {
      const refused = (await submit(deleteOrganizationAction, form(env, { organizationId: orgId, confirmation }))) as FormState;
      expect(refused.fieldErrors, confirmation).toEqual({ confirmation: "Type the slug exactly as shown in the label." });
    }
    expect(await organizationRow(orgId)).not.toBeNull();
    const deleted = await submit(deleteOrganizationAction, form(env, { organizationId: orgId, confirmation: ` ${slug} ` }));
    expect(deleted).toEqual({ redirect: `/account?pk=${env.publishableKey}&organizationDeleted=1` });
    expect(await organizationRow(orgId)).toBeNull();
  });

  it("never compares a non-member's confirmation: they cannot learn another organization's slug from the form", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const stranger = await person(env);
    const orgId = await organizationWith(env, [{ id: owner.id, role: "owner" }]);
    const slug = (await organizationRow(orgId))?.slug ?? "";
    expect(await checkDeletionConfirmation(getDb(), env.environmentId, orgId, stranger.id, slug)).toBe("not_a_member");
    expect(await checkDeletionConfirmation(getDb(), env.environmentId, orgId, stranger.id, "wrong")).toBe("not_a_member");
    expect(await checkDeletionConfirmation(getDb(), env.environmentId, "not-a-uuid", owner.id, slug)).toBe("not_a_member");
    expect(await checkDeletionConfirmation(getDb(), env.environmentId, orgId, owner.id, slug)).toBe("confirmed");
    signIn(stranger.token);
    // A wrong and a right guess get the same answer: the operation's not-found.
    for (const confirmation of ["wrong", slug]) {
      const answer = (await submit(deleteOrganizationAction, form(env, { organizationId: orgId, confirmation }))) as FormState;
      expect(answer).toMatchObject({ status: "error", message: "That item no longer exists. Reload the page.", fieldErrors: {} });
    }
    expect(await organizationRow(orgId)).not.toBeNull();
  });
});

describe("the pages, rendered for real sessions", () => {
  async function organizationPage(env: Env, organizationId: string) {
    const page = await OrganizationPage({ params: Promise.resolve({ organizationId }), searchParams: Promise.resolve({ pk: env.publishableKey }) });
    return renderToStaticMarkup(page);
  }

  it("shows the organization's page to its members, with controls by permission, and a not-found card to anyone else", async () => {
    const env = await newEnvironment();
    const owner = await person(env);
    const member = await person(env);
    const stranger = await person(env);
    const orgId = await organizationWith(env, [
      { id: owner.id, role: "owner" },
      { id: member.id, role: "member" },
    ]);
    signIn(owner.token);
    const asOwner = await organizationPage(env, orgId);
    expect(asOwner).toContain("Nordlys Research");
    expect(asOwner).toContain(`value="role:${member.id}"`);
    expect(asOwner).toContain("Send invitation");
    expect(asOwner).toContain("Save settings");
    expect(asOwner).toContain("To confirm, type the organization&#x27;s slug: nordlys-");
    signIn(member.token);
    const asMember = await organizationPage(env, orgId);
    expect(asMember).toContain(owner.email);
    expect(asMember).not.toContain('value="role:');
    expect(asMember).not.toContain("Send invitation");
    expect(asMember).not.toContain("Save settings");
    expect(asMember).not.toContain("Delete organization");
    expect(asMember).toContain("Leave organization");
    signIn(stranger.token);
    const asStranger = await organizationPage(env, orgId);
    expect(asStranger).toContain("Organization not found");
    expect(asStranger).not.toContain(owner.email);
    expect(await organizationPage(env, "not-a-uuid")).toContain("Organization not found");
  });

  it("greets the invitee with Accept and anyone else with switch account; offers an account only from the emailed link", async () => {
    const env = await newEnvironment();
    const { owner, invitee, token, ticket } = await invitedPerson(env);
    const landing = async (secret = ticket) =>
      renderToStaticMarkup(await InvitationAcceptPage({ searchParams: Promise.resolve({ pk: env.publishableKey, token: secret }) }));
    signIn(invitee.token);
    expect(await landing()).toContain("Accept invitation");
    expect(await landing(token)).toContain("Accept invitation");
    signIn(owner.token);
    const other = await landing();
    expect(other).toContain(`You are signed in as ${owner.email}; this invitation is for ${invitee.email}.`);
    signIn(null);
    expect(await landing()).toContain("Create account and join");
    const fromToken = await landing(token);
    expect(fromToken).toContain("Sign in");
    expect(fromToken).not.toContain("Create account and join");
  });

  it("keeps the secret in its URL from other sites: Referrer-Policy same-origin (no-referrer would break its forms' origin check)", async () => {
    const env = await newEnvironment();
    const metadata = await invitationAcceptMetadata({ searchParams: Promise.resolve({ pk: env.publishableKey, token: "x" }) });
    expect(metadata.referrer).toBe("same-origin");
  });
});
