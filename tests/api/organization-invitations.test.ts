import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, organizationInvitations, organizationMemberships, organizationRoles, organizations } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { expectProblem } from "../helpers/api";
import { clientApi, latestEmail } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { signedInClient } from "../helpers/mfa";

type Env = Awaited<ReturnType<typeof newEnvironment>>;

/** A signed-in user of the environment (created verified through the Server API). */
async function person(env: Env, name = "Ada Lovelace") {
  const email = uniqueEmail();
  const [firstName, lastName] = name.split(" ");
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD, firstName, lastName });
  const { client } = await signedInClient(env.publishableKey, email);
  return { id: user.id, email, client };
}

/** An organization with members by role, written directly: the organization endpoints are another module's. */
async function organization(env: Env, members: { id: string; role: string }[]) {
  const [org] = await getDb()
    .insert(organizations)
    .values({ environmentId: env.environmentId, name: "Nordlys Research", slug: `nordlys-${Math.random().toString(36).slice(2, 8)}` })
    .returning();
  if (!org) throw new Error("no organization");
  for (const member of members) {
    await getDb()
      .insert(organizationMemberships)
      .values({ environmentId: env.environmentId, organizationId: org.id, userId: member.id, role: member.role });
  }
  return org.id;
}

async function setup() {
  const env = await newEnvironment();
  const owner = await person(env);
  const admin = await person(env, "Grace Hopper");
  const member = await person(env, "Alan Turing");
  const orgId = await organization(env, [
    { id: owner.id, role: "owner" },
    { id: admin.id, role: "admin" },
    { id: member.id, role: "member" },
  ]);
  return { env, owner, admin, member, orgId };
}

function tokenFrom(url: string): string {
  const token = new URL(url).searchParams.get("token");
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

/** The invitation link in the newest invitation email to an address. */
async function emailedToken(to: string): Promise<string> {
  const message = await latestEmail(to, "organization_invitation");
  const link = /https?:\/\/\S+\/invitations\/accept\?token=[^\s"<)\]]+/.exec(message.text)?.[0];
  if (!link) throw new Error(`no invitation link in: ${message.text}`);
  return tokenFrom(link);
}

async function membershipsOf(orgId: string, userId: string) {
  return getDb()
    .select()
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, orgId), eq(organizationMemberships.userId, userId)));
}

describe("inviting", () => {
  it("stores the token hashed, emails inviter, organization, role, expiry and the hosted link, and records an event", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const res = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "admin" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organizationId: orgId, email, role: "admin" });
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, res.body.id));
    expect(row?.tokenHash).toBe(sha256(res.body.token));
    expect(row?.tokenHash).not.toContain(res.body.token);
    const message = await latestEmail(email, "organization_invitation");
    expect(message.subject).toContain("Ada Lovelace invited you to join Nordlys Research");
    expect(message.text).toContain("You will join as Admin.");
    expect(message.text).toContain("7 days");
    expect(await emailedToken(email)).toBe(res.body.token);
    const [event] = await getDb().select().from(events).where(and(eq(events.subjectId, orgId), eq(events.type, "organization.invitation_created")));
    expect(event?.data).toEqual({ invitationId: res.body.id, role: "admin" });
    expect(env.environmentId).toBe(row?.environmentId);
  });

  it("lets an admin invite, refuses a member (403), a non-member and another environment's user (404)", async () => {
    const { env, admin, member, orgId } = await setup();
    expect((await admin.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" })).status).toBe(200);
    expectProblem(await member.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }), 403, "forbidden");
    const outsider = await person(env);
    expectProblem(await outsider.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }), 404, "resource_not_found");
    const elsewhere = await person(await newEnvironment());
    expectProblem(await elsewhere.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }), 404, "resource_not_found");
  });

  it("follows the permission, not the role name: a custom role with org:invitations:manage may invite, one without may not", async () => {
    const { env, orgId } = await setup();
    await getDb()
      .insert(organizationRoles)
      .values([
        { environmentId: env.environmentId, key: "owner", name: "Owner", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"], position: 0 },
        { environmentId: env.environmentId, key: "recruiter", name: "Recruiter", permissions: ["org:invitations:manage"], position: 1 },
        { environmentId: env.environmentId, key: "billing", name: "Billing", permissions: ["org:settings:manage", "invoices:read"], position: 2 },
      ]);
    const recruiter = await person(env);
    const billing = await person(env);
    await getDb().insert(organizationMemberships).values([
      { environmentId: env.environmentId, organizationId: orgId, userId: recruiter.id, role: "recruiter" },
      { environmentId: env.environmentId, organizationId: orgId, userId: billing.id, role: "billing" },
    ]);
    expect((await recruiter.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "billing" })).status).toBe(200);
    expectProblem(await billing.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "billing" }), 403, "forbidden");
    // "admin" is not in this environment's stored set.
    expectProblem(await recruiter.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "admin" }), 400, "invalid_request");
  });

  it("lets only an owner invite an owner", async () => {
    const { owner, admin, orgId } = await setup();
    expectProblem(await admin.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "owner" }), 403, "forbidden");
    expect((await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "owner" })).status).toBe(200);
  });

  it("answers hostile input with 4xx problems", async () => {
    const { owner, orgId } = await setup();
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, { email: "not an email", role: "member" }), 400, "invalid_request");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "nope" }), 400, "invalid_request");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "x".repeat(500) }), 400, "invalid_request");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member", extra: 1 }), 400, "invalid_request");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, null), 400, "invalid_request");
    expectProblem(await owner.client.post(`/organizations/not-a-uuid/invitations`, { email: uniqueEmail(), role: "member" }), 400, "invalid_request");
    expectProblem(await owner.client.get(`/organizations/${orgId}/invitations?status=bogus`), 400, "invalid_request");
    expectProblem(await owner.client.get(`/organizations/${orgId}/invitations?limit=100000`), 400, "invalid_request");
    expectProblem(await clientApi((await newEnvironment()).publishableKey).post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }), 401, "unauthorized");
  });

  it("limits invitations per organization (rateLimits.organizationInvitations)", async () => {
    const { env, owner, admin, orgId } = await setup();
    await env.api.patch("/environment", { rateLimits: { organizationInvitations: { limit: 2, windowSeconds: 3600 } } });
    expect((await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" })).status).toBe(200);
    expect((await admin.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" })).status).toBe(200);
    // Another member from another address: the organization's count is what stops it.
    const elsewhere = { "x-forwarded-for": "203.0.113.9" };
    expectProblem(await admin.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }, elsewhere), 429, "rate_limited");
    const otherOrg = await organization(env, [{ id: owner.id, role: "owner" }]);
    expect((await owner.client.post(`/organizations/${otherOrg}/invitations`, { email: uniqueEmail(), role: "member" }, elsewhere)).status).toBe(200);
  });

  it("refuses every invitation operation where organizations are turned off", async () => {
    const { env, owner, orgId } = await setup();
    await env.api.patch("/environment", { organizations: { enabled: false } });
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" }), 403, "forbidden");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: "x" }), 403, "forbidden");
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket: "x", password: STRONG_PASSWORD }), 403, "forbidden");
  });
});

describe("listing, resending, revoking", () => {
  it("lists pending invitations without tokens, newest first, and by status", async () => {
    const { owner, member, orgId } = await setup();
    const first = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    const second = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "admin" });
    await owner.client.delete(`/organizations/${orgId}/invitations/${first.body.id}`);
    const pending = await owner.client.get(`/organizations/${orgId}/invitations`);
    expect(pending.status).toBe(200);
    expect(pending.body.items.map((i: { id: string }) => i.id)).toEqual([second.body.id]);
    expect(pending.body.items[0]).not.toHaveProperty("token");
    expect(pending.body.items[0]).toMatchObject({ status: "pending", invitedBy: owner.id, sendCount: 1 });
    const revoked = await owner.client.get(`/organizations/${orgId}/invitations?status=revoked`);
    expect(revoked.body.items.map((i: { id: string }) => i.id)).toEqual([first.body.id]);
    expectProblem(await member.client.get(`/organizations/${orgId}/invitations`), 403, "forbidden");
  });

  it("resends with a new token: the old link dies, the new one works", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const resent = await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.id).toBe(invited.body.id);
    expect(resent.body.token).not.toBe(invited.body.token);
    expect(await emailedToken(email)).toBe(resent.body.token);
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 404, "resource_not_found");
    expect((await client.post("/organizations/invitations/accept", { token: resent.body.token })).status).toBe(200);
    expect(await membershipsOf(orgId, invitee.id)).toHaveLength(1);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.sendCount).toBe(2);
  });

  it("revokes: the link answers invitation_revoked, a revoked one resends no more, revoking again changes nothing", async () => {
    const { env, owner, admin, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const revoked = await admin.client.delete(`/organizations/${orgId}/invitations/${invited.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked" });
    expect((await admin.client.delete(`/organizations/${orgId}/invitations/${invited.body.id}`)).body.status).toBe("revoked");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 410, "invitation_revoked");
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 410, "invitation_revoked");
  });

  it("keeps owner invitations to owners, and invitations to their organization", async () => {
    const { env, owner, admin, orgId } = await setup();
    const ownerInvite = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "owner" });
    expectProblem(await admin.client.post(`/organizations/${orgId}/invitations/${ownerInvite.body.id}/resend`), 403, "forbidden");
    expectProblem(await admin.client.delete(`/organizations/${orgId}/invitations/${ownerInvite.body.id}`), 403, "forbidden");
    const otherOrg = await organization(env, [{ id: admin.id, role: "owner" }]);
    expectProblem(await admin.client.delete(`/organizations/${otherOrg}/invitations/${ownerInvite.body.id}`), 404, "resource_not_found");
    expectProblem(await owner.client.delete(`/organizations/${orgId}/invitations/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await owner.client.delete(`/organizations/${orgId}/invitations/nope`), 400, "invalid_request");
  });
});

describe("accepting", () => {
  it("makes the user whose verified address matches a member with the role, once", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "admin" });
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    const accepted = await client.post("/organizations/invitations/accept", { token: invited.body.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ id: orgId, name: "Nordlys Research", role: "admin", roleName: "Admin" });
    expect(await membershipsOf(orgId, invitee.id)).toMatchObject([{ role: "admin" }]);
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 409, "invitation_already_accepted");
    const types = (await getDb().select({ type: events.type }).from(events).where(eq(events.subjectId, orgId))).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["organization.member_added", "organization.invitation_accepted"]));
  });

  it("answers a different account with invitation_wrong_account naming only the invited address", async () => {
    const { env, owner, member, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const res = await member.client.post("/organizations/invitations/accept", { token: invited.body.token });
    expectProblem(res, 403, "invitation_wrong_account");
    expect(res.body.properties.invitedEmail).toBe(email);
    expect(res.body.detail).toContain(member.email);
    expect(res.text).not.toContain("Nordlys");
    // An unverified secondary address of the right value is not enough.
    const other = await person(env);
    expect((await other.client.post("/users/me/email-addresses", { email })).status).toBe(200);
    expectProblem(await other.client.post("/organizations/invitations/accept", { token: invited.body.token }), 403, "invitation_wrong_account");
  });

  it("answers an expired invitation with invitation_expired, and a token of another environment with 404", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    await getDb()
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizationInvitations.id, invited.body.id));
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 410, "invitation_expired");

    const elsewhere = await newEnvironment();
    await createUser(elsewhere.api, { email, password: STRONG_PASSWORD });
    const { client: foreign } = await signedInClient(elsewhere.publishableKey, email);
    const fresh = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    expectProblem(await foreign.post("/organizations/invitations/accept", { token: fresh.body.token }), 404, "resource_not_found");
  });

  it("lets exactly one of 10 concurrent accepts win", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.post("/organizations/invitations/accept", { token: invited.body.token })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expectProblem(answer, 409, "invitation_already_accepted");
    expect(await membershipsOf(orgId, invitee.id)).toHaveLength(1);
  });

  it("answers an existing member with already_member and leaves the invitation pending", async () => {
    const { owner, member, orgId } = await setup();
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email: member.email, role: "admin" });
    expectProblem(await member.client.post("/organizations/invitations/accept", { token: invited.body.token }), 409, "already_member");
    expect(await membershipsOf(orgId, member.id)).toMatchObject([{ role: "member" }]);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.status).toBe("pending");
  });

  it("answers hostile input and signed-out callers with 4xx problems", async () => {
    const { env, owner } = await setup();
    expectProblem(await owner.client.post("/organizations/invitations/accept", {}), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: 42 }), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: "x".repeat(5000) }), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: "unknown" }), 404, "resource_not_found");
    expectProblem(await clientApi(env.publishableKey).post("/organizations/invitations/accept", { token: "unknown" }), 401, "unauthorized");
  });
});

describe("signing up from an invitation ticket", () => {
  it("creates a verified user who is a member at once, with a session", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    await env.api.patch("/environment", { signUp: { enabled: false } });
    await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "admin" });
    const ticket = await emailedToken(email);
    const client = clientApi(env.publishableKey);
    const res = await client.post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD, name: "Katherine Johnson" });
    expect(res.status).toBe(200);
    const me = await client.get("/users/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, firstName: "Katherine", lastName: "Johnson" });
    expect(me.body.emailVerified ?? me.body.emailVerifiedAt).toBeTruthy();
    expect(await membershipsOf(orgId, me.body.id)).toMatchObject([{ role: "admin" }]);
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD }), 409, "invitation_already_accepted");
  });

  it("answers an address that already has an account with identifier_exists, and changes nothing", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const existing = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket: invited.body.token, password: STRONG_PASSWORD }), 409, "identifier_exists");
    expect(await membershipsOf(orgId, existing.id)).toHaveLength(0);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.status).toBe("pending");
  });

  it("refuses revoked, expired, unknown tickets, weak passwords and hostile input", async () => {
    const { env, owner, orgId } = await setup();
    const client = clientApi(env.publishableKey);
    const revoked = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    await owner.client.delete(`/organizations/${orgId}/invitations/${revoked.body.id}`);
    expectProblem(await client.post("/auth/signup/ticket", { ticket: revoked.body.token, password: STRONG_PASSWORD }), 410, "invitation_revoked");
    const expired = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    await getDb().update(organizationInvitations).set({ expiresAt: new Date(0) }).where(eq(organizationInvitations.id, expired.body.id));
    expectProblem(await client.post("/auth/signup/ticket", { ticket: expired.body.token, password: STRONG_PASSWORD }), 410, "invitation_expired");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: "unknown", password: STRONG_PASSWORD }), 404, "resource_not_found");
    const live = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.body.token, password: "password" }), 400, "password_too_weak");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.body.token }), 400, "invalid_request");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.body.token, password: STRONG_PASSWORD, name: 7 }), 400, "invalid_request");
    expectProblem(await client.post("/auth/signup/ticket", [1]), 400, "invalid_request");
  });
});

describe("Server API invitations", () => {
  it("invites with any role, lists, and keeps to the environment", async () => {
    const { env, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await env.api.post(`/organizations/${orgId}/invitations`, { email, role: "owner" });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ organizationId: orgId, email, role: "owner" });
    expect((await latestEmail(email, "organization_invitation")).subject).toContain("You have been invited to join Nordlys Research");
    const listed = await env.api.get(`/organizations/${orgId}/invitations`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toMatchObject([{ id: invited.body.id, invitedBy: null }]);
    const other = await newEnvironment();
    expectProblem(await other.api.get(`/organizations/${orgId}/invitations`), 404, "resource_not_found");
    expectProblem(await other.api.post(`/organizations/${orgId}/invitations`, { email, role: "member" }), 404, "resource_not_found");
    expectProblem(await env.api.post(`/organizations/${orgId}/invitations`, { email, role: "ghost" }), 400, "invalid_request");
    expectProblem(await env.api.get(`/organizations/${orgId}/invitations?status=nope`), 400, "invalid_request");
  });
});
