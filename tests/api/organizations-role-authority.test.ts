import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, organizationInvitations, organizationRoles, users } from "@/db/schema";
import { readInvitationLanding } from "@/lib/hosted/invitation-landing";
import { lockRoleSet } from "@/lib/organizations/roles";
import { findEnvironment } from "@/lib/environments/context";
import { findMembership, type ActingMember } from "@/lib/organizations/memberships";
import { removeMember, updateMemberRole } from "@/lib/organizations/members";
import { deleteOrganization, updateOrganization } from "@/lib/organizations/organizations";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { emailedTicket, memberWithRole, organizationWithOwner, signedInUser, type TestEnvironment } from "../helpers/organizations";

/** A member's membership as the pipeline would have resolved it for their request, from a recent sign-in. */
/** A member acting through the Client API, as the pipeline resolved them at this moment. */
async function actingMember(environmentId: string, organizationId: string, userId: string): Promise<{ kind: "user"; member: ActingMember }> {
  const membership = await findMembership(getDb(), environmentId, organizationId, userId);
  if (!membership) throw new Error("not a member");
  return { kind: "user", member: { ...membership, recentSignIn: true } };
}

/*
 * Who may hand out which role, beyond the owner rules: a member's role bounds what
 * they can give, change, remove or (see the invitation tests) offer.
 */

const ROLES = [
  { key: "owner", name: "Owner", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage", "invoices:read"] },
  { key: "admin", name: "Admin", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage", "invoices:read"] },
  { key: "hr", name: "People", permissions: ["org:members:manage"] },
  { key: "member", name: "Member", permissions: [] },
];

/** A role that may invite, and nothing else. */
const RECRUITER = { key: "recruiter", name: "Recruiter", permissions: ["org:invitations:manage"] };

async function organizationWithRoles(env: TestEnvironment, extraRoles: (typeof ROLES)[number][] = []) {
  const replaced = await env.api.put("/roles", { items: [...ROLES, ...extraRoles] });
  expect(replaced.status, replaced.text).toBe(200);
  const { owner, organization } = await organizationWithOwner(env);
  return { owner, organization, base: `/organizations/${organization.id}/members` };
}

describe("a role bounds the roles its holder hands out", () => {
  it("org:members:manage alone cannot make anyone, itself included, an admin, nor touch an admin", async () => {
    const env = await newEnvironment();
    const { organization, base } = await organizationWithRoles(env);
    const hr = await memberWithRole(env, organization.id, "hr");
    const member = await memberWithRole(env, organization.id, "member");
    const admin = await memberWithRole(env, organization.id, "admin");

    const selfPromotion = await hr.client.patch(`${base}/${hr.user.id}`, { role: "admin" });
    expectProblem(selfPromotion, 403, "forbidden");
    expect(selfPromotion.body.detail).toMatch(/grants .*org:invitations:manage/);
    expectProblem(await hr.client.patch(`${base}/${member.user.id}`, { role: "admin" }), 403, "forbidden");
    expectProblem(await hr.client.patch(`${base}/${admin.user.id}`, { role: "member" }), 403, "forbidden");
    expectProblem(await hr.client.delete(`${base}/${admin.user.id}`), 403, "forbidden");

    // Within its own reach it works: a member to a peer role and back, a member removed.
    expect((await hr.client.patch(`${base}/${member.user.id}`, { role: "hr" })).status).toBe(200);
    expect((await hr.client.patch(`${base}/${member.user.id}`, { role: "member" })).status).toBe(200);
    expect((await hr.client.delete(`${base}/${member.user.id}`)).status).toBe(204);
    const roles = (await env.api.get(`${base}?limit=100`)).body.items.map((m: { userId: string; role: string }) => [m.userId, m.role]);
    expect(roles).toEqual(expect.arrayContaining([[hr.user.id, "hr"], [admin.user.id, "admin"]]));
  });

  it("an admin may give admin but not a role with a permission it lacks", async () => {
    const env = await newEnvironment();
    await env.api.put("/roles", { items: [...ROLES, { key: "billing", name: "Billing", permissions: ["invoices:write"] }] });
    const { organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/members`;
    const admin = await memberWithRole(env, organization.id, "admin");
    const member = await memberWithRole(env, organization.id, "member");
    expectProblem(await admin.client.patch(`${base}/${member.user.id}`, { role: "billing" }), 403, "forbidden");
    expect((await admin.client.patch(`${base}/${member.user.id}`, { role: "admin" })).status).toBe(200);
  });
});

describe("a role bounds the invitations its holder sends and manages", () => {
  it("org:invitations:manage alone cannot invite an admin, nor resend or revoke an admin's invitation", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithRoles(env, [RECRUITER]);
    const base = `/organizations/${organization.id}/invitations`;
    const recruiter = await memberWithRole(env, organization.id, "recruiter");
    const refused = await recruiter.client.post(base, { email: "second-address@example.com", role: "admin" });
    expectProblem(refused, 403, "forbidden");
    expect(refused.body.detail).toMatch(/org:members:manage/);
    expect((await recruiter.client.post(base, { email: "new-hire@example.com", role: "member" })).status).toBe(200);
    const adminInvitation = await owner.client.post(base, { email: "new-admin@example.com", role: "admin" });
    expectProblem(await recruiter.client.post(`${base}/${adminInvitation.body.id}/resend`), 403, "forbidden");
    expectProblem(await recruiter.client.delete(`${base}/${adminInvitation.body.id}`), 403, "forbidden");
    const pending = (await env.api.get(`${base}?limit=100`)).body.items.map((i: { email: string; role: string }) => [i.email, i.role]);
    expect(pending).toEqual(expect.arrayContaining([["new-hire@example.com", "member"], ["new-admin@example.com", "admin"]]));
    expect(pending).toHaveLength(2);
  });
});

/** An invitation's status as stored, and as its invitee meets it: accepting, and the hosted landing page. */
async function invitationSeenBy(env: TestEnvironment, invited: { id: string; email: string; token: string }) {
  const [row] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, invited.id));
  const landing = await readInvitationLanding(getDb(), env.environmentId, invited.token);
  return { stored: row?.status, landing: landing?.status };
}

async function revocationEvents(organizationId: string) {
  const rows = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.subjectId, organizationId), eq(events.type, "organization.invitation_revoked")))
    // In the order they were written: the test names which revocation came first.
    .orderBy(events.seq);
  return rows.map((row) => ({ invitationId: (row.data as { invitationId: string }).invitationId, actorType: row.actorType, actorId: row.actorId, requestId: row.requestId }));
}

describe("invitations end with their inviter's authority", () => {
  it("regression: a demotion revokes the demoted member's pending invitations for roles the new role cannot offer, as a revoke would, and only those", async () => {
    const env = await newEnvironment();
    const { owner, organization, base } = await organizationWithRoles(env, [RECRUITER]);
    const invitations = `/organizations/${organization.id}/invitations`;
    const admin = await memberWithRole(env, organization.id, "admin");
    const invite = async (client: typeof admin.client | typeof env.api, role: string) => {
      const res = await client.post(invitations, { email: uniqueEmail("invitee"), role });
      expect([200, 201], res.text).toContain(res.status);
      return res.body as { id: string; email: string; token: string };
    };
    const adminSeat = await invite(admin.client, "admin");
    const memberSeat = await invite(admin.client, "member");
    const ownersInvitation = await invite(owner.client, "admin");
    const backEndInvitation = await invite(env.api, "admin");

    const demoted = await owner.client.patch(`${base}/${admin.user.id}`, { role: "recruiter" });
    expect(demoted.status, demoted.text).toBe(200);
    // A recruiter offers no admin seat: that one is revoked; a member seat is within reach and stays.
    expect(await invitationSeenBy(env, adminSeat)).toEqual({ stored: "revoked", landing: "revoked" });
    expect(await invitationSeenBy(env, memberSeat)).toEqual({ stored: "pending", landing: "pending" });
    expect(await invitationSeenBy(env, ownersInvitation)).toEqual({ stored: "pending", landing: "pending" });
    expect(await invitationSeenBy(env, backEndInvitation)).toEqual({ stored: "pending", landing: "pending" });
    const invitee = await signedInUser(env, { email: adminSeat.email });
    expectProblem(await invitee.client.post("/organizations/invitations/accept", { token: adminSeat.token }), 410, "invitation_revoked");
    const [roleChanged] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.subjectId, organization.id), eq(events.type, "organization.role_changed")));
    expect(await revocationEvents(organization.id)).toEqual([
      { invitationId: adminSeat.id, actorType: "user", actorId: owner.user.id, requestId: roleChanged?.requestId },
    ]);

    // Through the Server API, to a role without org:invitations:manage: nothing is left to offer.
    expect((await env.api.patch(`${base}/${admin.user.id}`, { role: "member" })).status).toBe(200);
    expect(await invitationSeenBy(env, memberSeat)).toEqual({ stored: "revoked", landing: "revoked" });
    expect((await revocationEvents(organization.id)).map((event) => [event.invitationId, event.actorType])).toEqual([
      [adminSeat.id, "user"],
      [memberSeat.id, "secret_key"],
    ]);
    expect(await invitationSeenBy(env, ownersInvitation)).toEqual({ stored: "pending", landing: "pending" });
    expect(await invitationSeenBy(env, backEndInvitation)).toEqual({ stored: "pending", landing: "pending" });
  });

  it("regression: a member removed by another member, by the Server API, or leaving takes their pending invitations along", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const members = `/organizations/${organization.id}/members`;
    const invitations = `/organizations/${organization.id}/invitations`;
    const removedByOwner = await memberWithRole(env, organization.id, "admin");
    const removedByBackEnd = await memberWithRole(env, organization.id, "admin");
    const leaving = await memberWithRole(env, organization.id, "admin");
    const sent = new Map<string, { id: string; email: string; token: string }>();
    for (const admin of [removedByOwner, removedByBackEnd, leaving]) {
      const res = await admin.client.post(invitations, { email: uniqueEmail("invitee"), role: "member" });
      expect(res.status, res.text).toBe(200);
      sent.set(admin.user.id, res.body);
    }
    const kept = await owner.client.post(invitations, { email: uniqueEmail("invitee"), role: "admin" });

    expect((await owner.client.delete(`${members}/${removedByOwner.user.id}`)).status).toBe(204);
    expect((await env.api.delete(`${members}/${removedByBackEnd.user.id}`)).status).toBe(204);
    expect((await leaving.client.delete(`${members}/${leaving.user.id}`)).status).toBe(204);
    for (const invitation of sent.values()) expect(await invitationSeenBy(env, invitation)).toEqual({ stored: "revoked", landing: "revoked" });
    expect(await invitationSeenBy(env, kept.body)).toEqual({ stored: "pending", landing: "pending" });
    const byInvitation = new Map((await revocationEvents(organization.id)).map((event) => [event.invitationId, event]));
    expect(byInvitation.get(sent.get(removedByOwner.user.id)?.id ?? "")).toMatchObject({ actorType: "user", actorId: owner.user.id });
    expect(byInvitation.get(sent.get(removedByBackEnd.user.id)?.id ?? "")).toMatchObject({ actorType: "secret_key" });
    expect(byInvitation.get(sent.get(leaving.user.id)?.id ?? "")).toMatchObject({ actorType: "user", actorId: leaving.user.id });
    expect(byInvitation.size).toBe(3);
  });
});

/*
 * What the eager revocations above cannot see, because the inviter's membership stays:
 * a new role set, a ban. The claim asks again, under the organization lock (review #4).
 */
describe("an invitation is claimed only while its inviter may still offer it", () => {
  async function usersWithEmail(environmentId: string, email: string) {
    return getDb().select({ id: users.id }).from(users).where(and(eq(users.environmentId, environmentId), eq(users.email, email)));
  }

  it("regression: after PUT /roles took org:invitations:manage from the inviter's role, their invitation was still accepted; now it is revoked at the claim (410, audited, committed)", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithRoles(env, [RECRUITER]);
    const invitations = `/organizations/${organization.id}/invitations`;
    const recruiter = await memberWithRole(env, organization.id, "recruiter");
    const fromRecruiter = (await recruiter.client.post(invitations, { email: uniqueEmail("invitee"), role: "member" })).body as { id: string; email: string; token: string };
    const fromOwner = (await owner.client.post(invitations, { email: uniqueEmail("invitee"), role: "member" })).body as { id: string; email: string; token: string };

    const replaced = await env.api.put("/roles", { items: [...ROLES, { ...RECRUITER, permissions: [] }] });
    expect(replaced.status, replaced.text).toBe(200);
    const invitee = await signedInUser(env, { email: fromRecruiter.email });
    const refused = await invitee.client.post("/organizations/invitations/accept", { token: fromRecruiter.token });
    expectProblem(refused, 410, "invitation_revoked");
    expect(await findMembership(getDb(), env.environmentId, organization.id, invitee.user.id)).toBeNull();
    // Committed with the 410: the invitee, and everyone else, sees it revoked from now on.
    expect(await invitationSeenBy(env, fromRecruiter)).toEqual({ stored: "revoked", landing: "revoked" });
    expectProblem(await invitee.client.post("/organizations/invitations/accept", { token: fromRecruiter.token }), 410, "invitation_revoked");
    expect(await revocationEvents(organization.id)).toEqual([
      { invitationId: fromRecruiter.id, actorType: "system", actorId: null, requestId: refused.headers.get("x-request-id") },
    ]);

    // The owner's role still offers a member seat: that invitation is claimed as ever.
    const welcomed = await signedInUser(env, { email: fromOwner.email });
    expect((await welcomed.client.post("/organizations/invitations/accept", { token: fromOwner.token })).status).toBe(200);
    expect(await findMembership(getDb(), env.environmentId, organization.id, welcomed.user.id)).toMatchObject({ role: "member" });
  });

  it("regression: a banned admin's invitations stayed live (a ban keeps memberships); now accepting one, or signing up from its ticket, is 410 and makes no user", async () => {
    const env = await newEnvironment();
    const { organization } = await organizationWithOwner(env);
    const invitations = `/organizations/${organization.id}/invitations`;
    const admin = await memberWithRole(env, organization.id, "admin");
    const forAccount = (await admin.client.post(invitations, { email: uniqueEmail("invitee"), role: "admin" })).body as { id: string; email: string; token: string };
    const forSignUp = (await admin.client.post(invitations, { email: uniqueEmail("newcomer"), role: "member" })).body as { id: string; email: string; token: string };
    const ticket = await emailedTicket(forSignUp.email);
    expect((await env.api.post(`/users/${admin.user.id}/ban`)).status).toBe(200);

    const invitee = await signedInUser(env, { email: forAccount.email });
    expectProblem(await invitee.client.post("/organizations/invitations/accept", { token: forAccount.token }), 410, "invitation_revoked");
    expect(await findMembership(getDb(), env.environmentId, organization.id, invitee.user.id)).toBeNull();
    const signUp = await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD });
    expectProblem(signUp, 410, "invitation_revoked");
    expect(signUp.headers.getSetCookie().some((cookie) => cookie.startsWith("__gh_session="))).toBe(false);
    expect(await usersWithEmail(env.environmentId, forSignUp.email)).toEqual([]);
    expect(await invitationSeenBy(env, forAccount)).toEqual({ stored: "revoked", landing: "revoked" });
    expect(await invitationSeenBy(env, forSignUp)).toEqual({ stored: "revoked", landing: "revoked" });
    expect((await revocationEvents(organization.id)).map((event) => [event.invitationId, event.actorType]).sort()).toEqual(
      [
        [forAccount.id, "system"],
        [forSignUp.id, "system"],
      ].sort(),
    );
    // An unban gives the admin back their own powers, not the invitations the ban ended.
    expect((await env.api.post(`/users/${admin.user.id}/unban`)).status).toBe(200);
    expectProblem(await clientApi(env.publishableKey).post("/auth/signup/ticket", { ticket, password: STRONG_PASSWORD }), 410, "invitation_revoked");
  });
});

describe("the caller's role is read again under the organization lock", () => {
  it("a membership read before a demotion cannot remove or re-role anyone after it", async () => {
    const env = await newEnvironment();
    const { owner, organization, base } = await organizationWithRoles(env);
    const b = await memberWithRole(env, organization.id, "owner");
    const c = await memberWithRole(env, organization.id, "owner");
    // B's request resolved its membership (owner) ...
    const stale = await actingMember(env.environmentId, organization.id, b.user.id);
    expect(stale.member.role).toBe("owner");
    // ... then A demoted B to a plain member before B's transaction took the lock.
    expect((await owner.client.patch(`${base}/${b.user.id}`, { role: "member" })).status).toBe(200);
    const actor = { type: "user" as const, id: b.user.id, requestId: "test" };
    await expect(removeMember(getDb(), env.environmentId, organization.id, c.user.id, stale, actor)).rejects.toMatchObject({ code: "forbidden" });
    const environment = await findEnvironment(getDb(), env.environmentId);
    if (!environment) throw new Error("no environment");
    await expect(updateMemberRole(getDb(), environment, organization.id, c.user.id, "member", stale, actor)).rejects.toMatchObject({ code: "forbidden" });
    // Removed altogether: the organization is gone for B.
    expect((await owner.client.delete(`${base}/${b.user.id}`)).status).toBe(204);
    await expect(removeMember(getDb(), env.environmentId, organization.id, c.user.id, stale, actor)).rejects.toMatchObject({ code: "resource_not_found" });
    const owners = (await env.api.get(`${base}?limit=100`)).body.items.filter((m: { role: string }) => m.role === "owner");
    expect(owners.map((m: { userId: string }) => m.userId).sort()).toEqual([owner.user.id, c.user.id].sort());
  });
});

describe("organization settings and deletion", () => {
  it("only an owner deletes; settings changes and deletion read the caller's role again under the lock", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const admin = await memberWithRole(env, organization.id, "admin");
    const refused = await admin.client.delete(`/organizations/${organization.id}`);
    expectProblem(refused, 403, "forbidden");
    expect(refused.body.detail).toMatch(/only an owner/);
    // A membership read while the admin still had the permission, then taken away.
    const stale = await actingMember(env.environmentId, organization.id, admin.user.id);
    expect((await owner.client.patch(`/organizations/${organization.id}/members/${admin.user.id}`, { role: "member" })).status).toBe(200);
    const actor = { type: "user" as const, id: admin.user.id, requestId: "test" };
    await expect(updateOrganization(getDb(), env.environmentId, organization.id, { name: "Hijacked" }, stale, actor)).rejects.toMatchObject({ code: "forbidden" });
    const coOwner = await memberWithRole(env, organization.id, "owner");
    const staleOwner = await actingMember(env.environmentId, organization.id, coOwner.user.id);
    expect((await owner.client.delete(`/organizations/${organization.id}/members/${coOwner.user.id}`)).status).toBe(204);
    const ownerActor = { type: "user" as const, id: coOwner.user.id, requestId: "test" };
    await expect(deleteOrganization(getDb(), env.environmentId, organization.id, staleOwner, ownerActor)).rejects.toMatchObject({ code: "resource_not_found" });
    expect((await env.api.get(`/organizations/${organization.id}`)).body.name).toBe("Acme Inc");
  });
});

describe("role set replacements are serialized", () => {
  it("concurrent replacements of a never-stored set all answer 200, one set wins whole", async () => {
    const env = await newEnvironment();
    const sets = Array.from({ length: 6 }, (_, i) => [...ROLES, { key: `extra${i}`, name: `Extra ${i}`, permissions: [] }]);
    const results = await Promise.all(sets.map((items) => env.api.put("/roles", { items })));
    expect(results.map((r) => r.status)).toEqual(sets.map(() => 200));
    const stored = (await env.api.get("/roles")).body.items.map((r: { key: string }) => r.key);
    expect(stored).toHaveLength(ROLES.length + 1);
    expect(stored.slice(0, ROLES.length)).toEqual(ROLES.map((r) => r.key));
  });

  it("a role change racing a replacement that drops the role never leaves a member holding a dropped role", async () => {
    const env = await newEnvironment();
    const withTemp = [...ROLES, { key: "temp", name: "Temp", permissions: [] }];
    await env.api.put("/roles", { items: withTemp });
    const { owner, organization, base } = await organizationWithOwner(env).then((o) => ({ ...o, base: `/organizations/${o.organization.id}/members` }));
    const members = await Promise.all(Array.from({ length: 4 }, () => memberWithRole(env, organization.id, "member")));
    const results = await Promise.all([
      env.api.put("/roles", { items: ROLES }),
      ...members.map((m) => owner.client.patch(`${base}/${m.user.id}`, { role: "temp" })),
    ]);
    for (const res of results) expect([200, 400, 409]).toContain(res.status);
    const set = (await env.api.get("/roles")).body.items.map((r: { key: string }) => r.key);
    const held = (await env.api.get(`${base}?limit=100`)).body.items.map((m: { role: string }) => m.role);
    for (const role of held) expect(set).toContain(role);
  });
});

/* Holding the role-set lock on a second connection needs a server: PGlite has one connection. */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)("invitations and role set replacements", () => {
  it("an invitation made while a replacement drops its role waits for it and is refused, not stored with a dropped role", async () => {
    const env = await newEnvironment();
    await env.api.put("/roles", { items: [...ROLES, { key: "temp", name: "Temp", permissions: [] }] });
    const { owner, organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/invitations`;
    // Warm: the first request loads the route's modules, slower than the wait below.
    expect((await owner.client.post(base, { email: "warm@example.com", role: "member" })).status).toBe(200);
    let invited: Promise<ApiResponse> | undefined;
    // A replacement in progress: it holds the role-set lock while it drops "temp".
    await getDb().transaction(async (tx) => {
      await lockRoleSet(tx, env.environmentId, "exclusive");
      invited = owner.client.post(base, { email: "temp@example.com", role: "temp" });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await tx.delete(organizationRoles).where(and(eq(organizationRoles.environmentId, env.environmentId), eq(organizationRoles.key, "temp")));
    });
    const res = await invited!;
    expectProblem(res, 400, "invalid_request");
    expect((await env.api.get(`${base}?limit=100`)).body.items.map((i: { role: string }) => i.role)).toEqual(["member"]);
  });
});

describe("hostile query strings", () => {
  it("a NUL in a member search is 400, on the Client and the Server API", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const client = await owner.client.get(`/organizations/${organization.id}/members?query=a%00b`);
    expectProblem(client, 400, "invalid_request");
    expect(client.body.detail).toMatch(/NUL/);
    expectProblem(await env.api.get(`/organizations/${organization.id}/members?query=a%00b`), 400, "invalid_request");
  });
});
