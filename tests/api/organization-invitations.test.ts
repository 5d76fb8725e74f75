import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, organizationInvitations, organizationMemberships, organizationRoles, organizations, users } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { presentedSecret } from "@/lib/organizations/invitation-secrets";
import { claimInvitation, inClaimTransaction, findUsableInvitation } from "@/lib/organizations/invitations";
import { expectProblem } from "../helpers/api";
import { clientApi, latestEmail } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { signedInClient } from "../helpers/mfa";
import { emailedTicket } from "../helpers/organizations";

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

async function usersWithEmail(envId: string, email: string) {
  return getDb()
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.environmentId, envId), eq(users.email, email)));
}

async function membershipsOf(orgId: string, userId: string) {
  return getDb()
    .select()
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, orgId), eq(organizationMemberships.userId, userId)));
}

describe("inviting", () => {
  it("stores the token and the mail ticket hashed, emails inviter, organization, role, expiry and the hosted link with the ticket, and records an event", async () => {
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
    const ticket = await emailedTicket(email);
    expect(ticket).not.toBe(res.body.token);
    expect(row?.ticketHash).toBe(sha256(ticket));
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
    expect((await recruiter.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "recruiter" })).status).toBe(200);
    expectProblem(await billing.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "billing" }), 403, "forbidden");
    // Nor may the recruiter offer a role granting what it lacks itself (org:settings:manage, invoices:read).
    expectProblem(await recruiter.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "billing" }), 403, "forbidden");
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

  it("resends with a new token and a new ticket: the old token and the old link both die, the new ones work", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const oldTicket = await emailedTicket(email);
    const resent = await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.id).toBe(invited.body.id);
    expect(resent.body.token).not.toBe(invited.body.token);
    const newTicket = await emailedTicket(email);
    expect(newTicket).not.toBe(oldTicket);
    const signUp = clientApi(env.publishableKey);
    expectProblem(await signUp.post("/auth/signup/ticket", { ticket: oldTicket, password: STRONG_PASSWORD }), 400, "invalid_code");
    expect(await usersWithEmail(env.environmentId, email)).toHaveLength(0);
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 400, "invalid_code");
    expectProblem(await client.post("/organizations/invitations/accept", { token: oldTicket }), 400, "invalid_code");
    expect((await client.post("/organizations/invitations/accept", { token: resent.body.token })).status).toBe(200);
    expect(await membershipsOf(orgId, invitee.id)).toHaveLength(1);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.sendCount).toBe(2);
  });

  it("never answers the mail ticket: not on invite, resend, list or revoke, Client or Server API, nor in the audit rows", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const firstTicket = await emailedTicket(email);
    const resent = await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`);
    const secondTicket = await emailedTicket(email);
    const serverEmail = uniqueEmail("invitee");
    const serverInvited = await env.api.post(`/organizations/${orgId}/invitations`, { email: serverEmail, role: "member" });
    const serverTicket = await emailedTicket(serverEmail);
    const answers = [
      invited,
      resent,
      serverInvited,
      await owner.client.get(`/organizations/${orgId}/invitations`),
      await env.api.get(`/organizations/${orgId}/invitations`),
      await owner.client.delete(`/organizations/${orgId}/invitations/${invited.body.id}`),
      await owner.client.get(`/organizations/${orgId}/invitations?status=revoked`),
    ];
    const audit = await getDb().select({ data: events.data }).from(events).where(eq(events.subjectId, orgId));
    for (const text of [...answers.map((answer) => answer.text), JSON.stringify(audit)]) {
      for (const ticket of [firstTicket, secondTicket, serverTicket]) expect(text).not.toContain(ticket);
    }
    expect(Object.keys(invited.body).sort()).toEqual(["email", "expiresAt", "id", "organizationId", "role", "token"]);
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

  it("answers an expired invitation and a token of another environment with 400 invalid_code", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    await getDb()
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizationInvitations.id, invited.body.id));
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 400, "invalid_code");

    const elsewhere = await newEnvironment();
    await createUser(elsewhere.api, { email, password: STRONG_PASSWORD });
    const { client: foreign } = await signedInClient(elsewhere.publishableKey, email);
    const fresh = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    expectProblem(await foreign.post("/organizations/invitations/accept", { token: fresh.body.token }), 400, "invalid_code");
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

  it("an accept racing the organization's deletion queues behind it: 200 or 400 invalid_code, never a deadlock's 500", async () => {
    for (let round = 0; round < 5; round++) {
      const { env, owner, orgId } = await setup();
      const email = uniqueEmail("invitee");
      const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
      await createUser(env.api, { email, password: STRONG_PASSWORD });
      const { client } = await signedInClient(env.publishableKey, email);
      const [accepted, deleted, lateInvite] = await Promise.all([
        client.post("/organizations/invitations/accept", { token: invited.body.token }),
        env.api.delete(`/organizations/${orgId}`),
        env.api.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail("late"), role: "member" }),
      ]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([200, 400], accepted.text).toContain(accepted.status);
      expect([201, 404], lateInvite.text).toContain(lateInvite.status);
      expect(await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, orgId))).toEqual([]);
    }
  });

  it("answers an existing member with already_member and leaves the invitation pending", async () => {
    const { owner, member, orgId } = await setup();
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email: member.email, role: "admin" });
    expectProblem(await member.client.post("/organizations/invitations/accept", { token: invited.body.token }), 409, "already_member");
    expect(await membershipsOf(orgId, member.id)).toMatchObject([{ role: "member" }]);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.status).toBe("pending");
  });

  it("lets a resend between lookup and claim win over the superseded secret (regression: the claim matched only id, status and expiry)", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const oldTicket = await emailedTicket(email);
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const stale = presentedSecret(oldTicket, "accept");
    // The accept looked the invitation up with the old link...
    const row = await findUsableInvitation(getDb(), env.environmentId, stale);
    // ...then the owner resent it before the claim ran.
    expect((await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`)).status).toBe(200);
    const claim = inClaimTransaction(getDb(), row, stale, null, (tx, held) => claimInvitation(tx, held, invitee.id));
    await expect(claim).rejects.toMatchObject({ code: "invalid_code" });
    const [now] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(now?.status).toBe("pending");
  });

  it("answers hostile input and signed-out callers with 4xx problems", async () => {
    const { env, owner } = await setup();
    expectProblem(await owner.client.post("/organizations/invitations/accept", {}), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: 42 }), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: "x".repeat(5000) }), 400, "invalid_request");
    expectProblem(await owner.client.post("/organizations/invitations/accept", { token: "unknown" }), 400, "invalid_code");
    expectProblem(await clientApi(env.publishableKey).post("/organizations/invitations/accept", { token: "unknown" }), 401, "unauthorized");
  });
});

describe("signing up from an invitation ticket", () => {
  it("creates a verified user who is a member at once, with a session", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    await env.api.patch("/environment", { signUp: { enabled: false } });
    await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "admin" });
    const ticket = await emailedTicket(email);
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

  it("refuses the inviter's token like an unknown ticket and creates no user (regression: any inviter could sign up as the invitee, verified)", async () => {
    const { env, owner, orgId } = await setup();
    // Public sign-up is closed: the token must not open it either.
    await env.api.patch("/environment", { signUp: { enabled: false } });
    const email = uniqueEmail("victim");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const client = clientApi(env.publishableKey);
    const withToken = await client.post("/auth/signup/ticket", { ticket: invited.body.token, password: STRONG_PASSWORD });
    const unknown = await client.post("/auth/signup/ticket", { ticket: "unknown-ticket", password: STRONG_PASSWORD });
    expectProblem(withToken, 400, "invalid_code");
    expectProblem(unknown, 400, "invalid_code");
    expect(withToken.body.detail).toBe(unknown.body.detail);
    expect(await usersWithEmail(env.environmentId, email)).toHaveLength(0);
    expect((await client.get("/users/me")).status).toBe(401);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.status).toBe("pending");
    // Nor is the token an oracle for whether an address has an account: invalid_code again, not 409 identifier_exists.
    const existingEmail = uniqueEmail("existing");
    await createUser(env.api, { email: existingEmail, password: STRONG_PASSWORD });
    const probe = await owner.client.post(`/organizations/${orgId}/invitations`, { email: existingEmail, role: "member" });
    expectProblem(await client.post("/auth/signup/ticket", { ticket: probe.body.token, password: STRONG_PASSWORD }), 400, "invalid_code");
  });

  it("lets the mail ticket also accept for an existing account with the address verified", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "admin" });
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expect((await client.post("/organizations/invitations/accept", { token: await emailedTicket(email) })).status).toBe(200);
    expect(await membershipsOf(orgId, invitee.id)).toMatchObject([{ role: "admin" }]);
  });

  it("cannot sign up from an invitation made before tickets existed (no ticket hash), which still accepts by token", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const ticket = await emailedTicket(email);
    await getDb().update(organizationInvitations).set({ ticketHash: null }).where(eq(organizationInvitations.id, invited.body.id));
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD }), 400, "invalid_code");
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expect((await client.post("/organizations/invitations/accept", { token: invited.body.token })).status).toBe(200);
  });

  it("answers an address that already has an account with identifier_exists, and changes nothing", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const existing = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket: await emailedTicket(email), password: STRONG_PASSWORD }), 409, "identifier_exists");
    expect(await membershipsOf(orgId, existing.id)).toHaveLength(0);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.status).toBe("pending");
  });

  it("refuses revoked, expired, unknown tickets, weak passwords and hostile input", async () => {
    const { env, owner, orgId } = await setup();
    const client = clientApi(env.publishableKey);
    /** Invites a fresh address; answers the invitation's id and its mail ticket. */
    const invite = async () => {
      const email = uniqueEmail();
      const res = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
      return { id: res.body.id as string, ticket: await emailedTicket(email) };
    };
    const revoked = await invite();
    await owner.client.delete(`/organizations/${orgId}/invitations/${revoked.id}`);
    expectProblem(await client.post("/auth/signup/ticket", { ticket: revoked.ticket, password: STRONG_PASSWORD }), 410, "invitation_revoked");
    const expired = await invite();
    await getDb().update(organizationInvitations).set({ expiresAt: new Date(0) }).where(eq(organizationInvitations.id, expired.id));
    expectProblem(await client.post("/auth/signup/ticket", { ticket: expired.ticket, password: STRONG_PASSWORD }), 400, "invalid_code");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: "unknown", password: STRONG_PASSWORD }), 400, "invalid_code");
    const live = await invite();
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.ticket, password: "password" }), 400, "password_too_weak");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.ticket }), 400, "invalid_request");
    expectProblem(await client.post("/auth/signup/ticket", { ticket: live.ticket, password: STRONG_PASSWORD, name: 7 }), 400, "invalid_request");
    expectProblem(await client.post("/auth/signup/ticket", [1]), 400, "invalid_request");
  });
});

describe("a wrong or expired invitation secret (CONTRACT §4)", () => {
  it("regression: an unknown or expired token answers 400 invalid_code on accept and on sign-up from a ticket, not 404 resource_not_found or 410", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    const ticket = await emailedTicket(email);
    const signUp = clientApi(env.publishableKey);
    const unknown = await signUp.post("/auth/signup/ticket", { ticket: "no-such-ticket", password: STRONG_PASSWORD });
    expectProblem(unknown, 400, "invalid_code");
    expect(unknown.body.detail).toBe("No invitation matches this ticket.");
    const other = await person(env);
    expectProblem(await other.client.post("/organizations/invitations/accept", { token: "no-such-token" }), 400, "invalid_code");

    await getDb().update(organizationInvitations).set({ expiresAt: new Date(0) }).where(eq(organizationInvitations.id, invited.body.id));
    expectProblem(await signUp.post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD }), 400, "invalid_code");
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    const expired = await client.post("/organizations/invitations/accept", { token: invited.body.token });
    expectProblem(expired, 400, "invalid_code");
    expect(expired.body.detail).toMatch(/expired/);
    expect(await usersWithEmail(env.environmentId, email)).toHaveLength(1);
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

describe("Server API resend and revoke", () => {
  it("resends with the operator as actor: a new token and ticket, the old link dies, the email carries the new ticket", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    // An owner invitation: the back-end is trusted with it, as with inviting.
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "owner" });
    const resent = await env.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ id: invited.body.id, organizationId: orgId, email, role: "owner" });
    expect(resent.body.token).not.toBe(invited.body.token);
    const ticket = await emailedTicket(email);
    expect(ticket).not.toBe(resent.body.token);
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row?.tokenHash).toBe(sha256(resent.body.token));
    expect(row?.ticketHash).toBe(sha256(ticket));
    expect(row?.sendCount).toBe(2);
    const [event] = await getDb().select().from(events).where(and(eq(events.subjectId, orgId), eq(events.type, "organization.invitation_resent")));
    expect(event).toMatchObject({ actorType: "secret_key", data: { invitationId: invited.body.id } });
  });

  it("revokes with the operator as actor, idempotently; the link then answers invitation_revoked and resend 410", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "owner" });
    const revoked = await env.api.delete(`/organizations/${orgId}/invitations/${invited.body.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: invited.body.id, status: "revoked", invitedBy: owner.id });
    expect(revoked.body).not.toHaveProperty("token");
    const again = await env.api.delete(`/organizations/${orgId}/invitations/${invited.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    const audited = await getDb().select().from(events).where(and(eq(events.subjectId, orgId), eq(events.type, "organization.invitation_revoked")));
    expect(audited).toMatchObject([{ actorType: "secret_key" }]);
    expectProblem(await env.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 410, "invitation_revoked");
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expectProblem(await client.post("/organizations/invitations/accept", { token: invited.body.token }), 410, "invitation_revoked");
  });

  it("answers an accepted invitation with invitation_already_accepted, for resend and revoke", async () => {
    const { env, owner, orgId } = await setup();
    const email = uniqueEmail("invitee");
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email, role: "member" });
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, email);
    expect((await client.post("/organizations/invitations/accept", { token: invited.body.token })).status).toBe(200);
    expectProblem(await env.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 409, "invitation_already_accepted");
    expectProblem(await env.api.delete(`/organizations/${orgId}/invitations/${invited.body.id}`), 409, "invitation_already_accepted");
  });

  it("keeps to the organization and the environment: unknown ids, another organization's and another environment's are 404", async () => {
    const { env, owner, orgId } = await setup();
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    const otherOrg = await organization(env, [{ id: owner.id, role: "owner" }]);
    const other = await newEnvironment();
    for (const path of [
      `/organizations/${orgId}/invitations/${unknownId()}`,
      `/organizations/${unknownId()}/invitations/${invited.body.id}`,
      `/organizations/${otherOrg}/invitations/${invited.body.id}`,
    ]) {
      expectProblem(await env.api.delete(path), 404, "resource_not_found");
      expectProblem(await env.api.post(`${path}/resend`), 404, "resource_not_found");
    }
    expectProblem(await other.api.delete(`/organizations/${orgId}/invitations/${invited.body.id}`), 404, "resource_not_found");
    expectProblem(await other.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 404, "resource_not_found");
    const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.body.id));
    expect(row).toMatchObject({ status: "pending", sendCount: 1 });
  });

  it("answers hostile input and a missing key with 4xx problems", async () => {
    const { env, owner, orgId } = await setup();
    const invited = await owner.client.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    expectProblem(await env.api.delete(`/organizations/${orgId}/invitations/nope`), 400, "invalid_request");
    expectProblem(await env.api.post(`/organizations/${orgId}/invitations/${"9".repeat(300)}/resend`), 400, "invalid_request");
    expectProblem(await env.api.post(`/organizations/not-a-uuid/invitations/${invited.body.id}/resend`), 400, "invalid_request");
    expectProblem(await env.api.get(`/organizations/${orgId}/invitations/${invited.body.id}`), 405, "method_not_allowed");
    expectProblem(await env.api.get(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 405, "method_not_allowed");
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`, undefined, { authorization: "Bearer nope" }), 401, "unauthorized");
  });

  it("counts resends against rateLimits.organizationInvitations per organization, as the Client API does", async () => {
    const { env, owner, orgId } = await setup();
    await env.api.patch("/environment", { rateLimits: { organizationInvitations: { limit: 2, windowSeconds: 3600 } } });
    const invited = await env.api.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" });
    expect((await env.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`)).status).toBe(200);
    expectProblem(await env.api.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 429, "rate_limited");
    // The Client API shares the organization's count.
    expectProblem(await owner.client.post(`/organizations/${orgId}/invitations/${invited.body.id}/resend`), 429, "rate_limited");
    const otherOrg = await organization(env, [{ id: owner.id, role: "owner" }]);
    const elsewhere = await env.api.post(`/organizations/${otherOrg}/invitations`, { email: uniqueEmail(), role: "member" });
    expect((await env.api.post(`/organizations/${otherOrg}/invitations/${elsewhere.body.id}/resend`)).status).toBe(200);
  });
});

describe("invitation list pages", () => {
  /** `n` pending invitations made through the Server API, newest first as the list orders them. */
  async function invitations(env: Env, orgId: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await env.api.post(`/organizations/${orgId}/invitations`, { email: uniqueEmail(), role: "member" })).body.id);
    return ids.reverse();
  }

  it("pages by keyset with limit and cursor, on the Client and the Server API alike", async () => {
    const { env, owner, orgId } = await setup();
    const ids = await invitations(env, orgId, 5);
    for (const get of [(path: string) => owner.client.get(path), (path: string) => env.api.get(path)]) {
      const first = await get(`/organizations/${orgId}/invitations?limit=2`);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ hasMore: true, nextCursor: ids[1] });
      expect(first.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
      const second = await get(`/organizations/${orgId}/invitations?limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(2, 4));
      const last = await get(`/organizations/${orgId}/invitations?limit=2&cursor=${second.body.nextCursor}`);
      expect(last.body).toMatchObject({ hasMore: false, nextCursor: null });
      expect(last.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(4));
      expect((await get(`/organizations/${orgId}/invitations`)).body).toMatchObject({ hasMore: false, nextCursor: null, items: ids.map((id) => ({ id })) });
    }
  });

  it("pages within a status, and a cursor whose invitation changed status meanwhile still continues the list", async () => {
    const { env, orgId } = await setup();
    const ids = await invitations(env, orgId, 4);
    const first = await env.api.get(`/organizations/${orgId}/invitations?limit=2`);
    await env.api.delete(`/organizations/${orgId}/invitations/${first.body.nextCursor}`);
    await env.api.delete(`/organizations/${orgId}/invitations/${ids[3]}`);
    const rest = await env.api.get(`/organizations/${orgId}/invitations?limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ items: [{ id: ids[2] }], hasMore: false, nextCursor: null });
    const revoked = await env.api.get(`/organizations/${orgId}/invitations?status=revoked&limit=1`);
    expect(revoked.body).toMatchObject({ items: [{ id: ids[1] }], hasMore: true, nextCursor: ids[1] });
    const revokedRest = await env.api.get(`/organizations/${orgId}/invitations?status=revoked&limit=1&cursor=${ids[1]}`);
    expect(revokedRest.body).toMatchObject({ items: [{ id: ids[3] }], hasMore: false });
  });

  it("answers a cursor of another organization or environment, or no id at all, with 400 invalid_request", async () => {
    const { env, owner, orgId } = await setup();
    await invitations(env, orgId, 2);
    const otherOrg = await organization(env, [{ id: owner.id, role: "owner" }]);
    const [foreignInOrg] = await invitations(env, otherOrg, 1);
    const other = await newEnvironment();
    const otherEnvOrg = await organization(other, []);
    const [foreignInEnv] = await invitations(other, otherEnvOrg, 1);
    for (const cursor of [foreignInOrg, foreignInEnv, unknownId()]) {
      const res = await env.api.get(`/organizations/${orgId}/invitations?cursor=${cursor}`);
      expectProblem(res, 400, "invalid_request");
      expect(res.body.detail).toContain("cursor");
      expectProblem(await owner.client.get(`/organizations/${orgId}/invitations?cursor=${cursor}`), 400, "invalid_request");
    }
    for (const query of ["cursor=nope", "limit=0", "limit=101", "limit=-1", "limit=1.5", "limit=abc", "extra=1"]) {
      expectProblem(await env.api.get(`/organizations/${orgId}/invitations?${query}`), 400, "invalid_request");
    }
  });
});
