import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { organizationInvitations, organizationMemberships, organizations, users } from "@/db/schema";
import { findEnvironment } from "@/lib/environments/context";
import { inviteToOrganization, resendInvitation, revokeInvitation } from "@/lib/organizations/invitations";
import { findMembership, type ActingMember } from "@/lib/organizations/memberships";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { ageSignIn } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD } from "../helpers/fixtures";
import { memberWithRole, signedInUser, type TestEnvironment } from "../helpers/organizations";

// Review findings:
// 1. Deleting an organization needs a recent sign-in, but a stale owner session could
//    invite a second address as owner (or promote one), which then removed the real
//    owner and deleted the organization with its own fresh session. Giving, taking
//    away or offering the owner role now needs a recent sign-in too.
// 2. Invite, resend and revoke judged the caller's role as the pipeline read it, before
//    the organization's lock: a demoted admin's invite already in flight still stored
//    an admin invitation. They now read the caller's membership again under the lock.

async function ownedOrganization(env: TestEnvironment) {
  const owner = await signedInUser(env, { password: STRONG_PASSWORD });
  const res = await owner.client.post("/organizations", { name: "Acme Inc" });
  expect(res.status, res.text).toBe(201);
  return { owner, organization: res.body as { id: string } };
}

describe("owner changes need a recent sign-in", () => {
  it("a stale owner session can neither invite, promote, demote nor remove an owner; other roles still go; after reverifying, all of it does", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await ownedOrganization(env);
    const base = `/organizations/${organization.id}`;
    const coOwner = await memberWithRole(env, organization.id, "owner");
    const member = await memberWithRole(env, organization.id, "member");
    const pendingOwner = await env.api.post(`${base}/invitations`, { email: "future-owner@example.com", role: "owner" });
    expect(pendingOwner.status, pendingOwner.text).toBe(201);
    await ageSignIn(owner.sessionId);

    expectProblem(await owner.client.delete(base), 403, "reverification_required");
    expectProblem(await owner.client.post(`${base}/invitations`, { email: "attacker@example.com", role: "owner" }), 403, "reverification_required");
    expectProblem(await owner.client.post(`${base}/invitations/${pendingOwner.body.id}/resend`), 403, "reverification_required");
    expectProblem(await owner.client.patch(`${base}/members/${member.user.id}`, { role: "owner" }), 403, "reverification_required");
    expectProblem(await owner.client.patch(`${base}/members/${coOwner.user.id}`, { role: "member" }), 403, "reverification_required");
    expectProblem(await owner.client.delete(`${base}/members/${coOwner.user.id}`), 403, "reverification_required");
    const owners = await getDb()
      .select({ userId: organizationMemberships.userId })
      .from(organizationMemberships)
      .where(and(eq(organizationMemberships.organizationId, organization.id), eq(organizationMemberships.role, "owner")));
    expect(owners.map((row) => row.userId).sort()).toEqual([owner.user.id, coOwner.user.id].sort());
    const invitations = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organization.id));
    expect(invitations).toHaveLength(1);

    // Below owner nothing changes; revoking an owner invitation gives nobody anything.
    expect((await owner.client.patch(`${base}/members/${member.user.id}`, { role: "admin" })).status).toBe(200);
    expect((await owner.client.post(`${base}/invitations`, { email: "colleague@example.com", role: "member" })).status).toBe(200);
    expect((await owner.client.delete(`${base}/invitations/${pendingOwner.body.id}`)).status).toBe(200);

    expect((await owner.client.post("/auth/reverify", { password: STRONG_PASSWORD })).status).toBe(200);
    expect((await owner.client.post(`${base}/invitations`, { email: "partner@example.com", role: "owner" })).status).toBe(200);
    expect((await owner.client.patch(`${base}/members/${member.user.id}`, { role: "owner" })).body.role).toBe("owner");
    expect((await owner.client.patch(`${base}/members/${coOwner.user.id}`, { role: "member" })).body.role).toBe("member");
    expect((await owner.client.delete(`${base}/members/${coOwner.user.id}`)).status).toBe(204);
  });

  it("leaving is not an owner change for this rule: a stale owner session may still leave when another owner stays", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await ownedOrganization(env);
    await memberWithRole(env, organization.id, "owner");
    await ageSignIn(owner.sessionId);
    expect((await owner.client.delete(`/organizations/${organization.id}/members/${owner.user.id}`)).status).toBe(204);
  });
});

describe("invitations read the caller's role again under the organization's lock", () => {
  it("an admin demoted (or removed) after the pipeline read the membership can no longer invite, resend or revoke an admin invitation", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await ownedOrganization(env);
    const admin = await memberWithRole(env, organization.id, "admin");
    const environment = await findEnvironment(getDb(), env.environmentId);
    if (!environment) throw new Error("no environment");
    const pending = await env.api.post(`/organizations/${organization.id}/invitations`, { email: "second-admin@example.com", role: "admin" });
    expect(pending.status).toBe(201);
    // The admin's requests resolved the membership (admin) ...
    const read = await findMembership(getDb(), env.environmentId, organization.id, admin.user.id);
    const stale: ActingMember = { ...read!, recentSignIn: true };
    // ... then an owner demoted them before their transactions took the lock.
    expect((await owner.client.patch(`/organizations/${organization.id}/members/${admin.user.id}`, { role: "member" })).status).toBe(200);
    const inviter = { actor: { type: "user" as const, id: admin.user.id, requestId: "test" }, caller: { kind: "user" as const, member: stale } };
    await expect(inviteToOrganization(getDb(), environment, organization.id, { email: "alt@example.com", role: "admin" }, inviter, null)).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(resendInvitation(getDb(), environment, organization.id, pending.body.id, inviter, null)).rejects.toMatchObject({ code: "forbidden" });
    await expect(revokeInvitation(getDb(), environment, organization.id, pending.body.id, inviter)).rejects.toMatchObject({ code: "forbidden" });
    expect((await owner.client.delete(`/organizations/${organization.id}/members/${admin.user.id}`)).status).toBe(204);
    await expect(revokeInvitation(getDb(), environment, organization.id, pending.body.id, inviter)).rejects.toMatchObject({ code: "resource_not_found" });
    const rows = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organization.id));
    expect(rows.map((row) => ({ email: row.email, status: row.status, sendCount: row.sendCount }))).toEqual([
      { email: "second-admin@example.com", status: "pending", sendCount: 1 },
    ]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("an invitation racing the deletion of its inviter", () => {
  it("queues behind the deletion (inviter's row, then the organization's) instead of deadlocking into a 500", async () => {
    const env = await newEnvironment();
    const { organization } = await ownedOrganization(env);
    const admin = await memberWithRole(env, organization.id, "admin");
    let invite: Promise<ApiResponse> | undefined;
    // A deletion of the admin in progress holds their row, then takes the organization's (release-memberships.ts).
    await getDb().transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, admin.user.id)).for("update");
      invite = admin.client.post(`/organizations/${organization.id}/invitations`, { email: "late@example.com", role: "member" });
      await new Promise((resolve) => setTimeout(resolve, 700));
      await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organization.id)).for("update");
    });
    const answered = await invite!;
    expect(answered.status, answered.text).toBe(200);
  });
});
