import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, organizationInvitations, organizationMemberships, organizations, users } from "@/db/schema";
import { expectProblem } from "../helpers/api";
import { clientApi, latestEmail, signedUpClient } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner, type TestEnvironment } from "../helpers/organizations";

const OWNER_PERMISSIONS = ["org:members:manage", "org:invitations:manage", "org:settings:manage"];

async function membersOf(env: TestEnvironment, organizationId: string): Promise<{ userId: string; role: string }[]> {
  const res = await env.api.get(`/organizations/${organizationId}/members?limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((m: { userId: string; role: string }) => ({ userId: m.userId, role: m.role }));
}

async function eventsOf(organizationId: string, type: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.subjectId, organizationId), eq(events.type, type)));
}

async function deleteThroughServerApi(env: TestEnvironment, userId: string) {
  const res = await env.api.delete(`/users/${userId}`);
  expect(res.status, res.text).toBe(200);
  return res;
}

describe("deleting the last owner of an organization", () => {
  it("promotes the admin over an older member, audited, and the member list and user view forget the deleted user", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const admin = await memberWithRole(env, organization.id, "admin");
    const deleted = await deleteThroughServerApi(env, owner.user.id);
    expect(deleted.body.organizations ?? []).toEqual([]);

    expect(await membersOf(env, organization.id)).toEqual([
      { userId: member.user.id, role: "member" },
      { userId: admin.user.id, role: "owner" },
    ]);
    expect((await env.api.get(`/users/${owner.user.id}`)).body.organizations).toEqual([]);
    expect((await env.api.get(`/users/${admin.user.id}`)).body.organizations).toMatchObject([{ id: organization.id, role: "owner", roleName: "Owner" }]);
    const [promoted] = await eventsOf(organization.id, "organization.owner_promoted");
    expect(promoted).toMatchObject({
      actorType: "secret_key",
      data: { userId: admin.user.id, role: "owner", previousRole: "admin", formerOwnerId: owner.user.id },
    });
    expect((await eventsOf(organization.id, "organization.member_removed")).map((e) => e.data)).toEqual([{ userId: owner.user.id, role: "owner" }]);
    // The promotion, the removal and the deletion share the request: one change.
    const [userDeleted] = await getDb().select().from(events).where(and(eq(events.subjectId, owner.user.id), eq(events.type, "user.deleted")));
    expect(promoted?.requestId).toBe(userDeleted?.requestId);
    // The new owner holds the organization: the last-owner rules apply to them now.
    expectProblem(await env.api.delete(`/organizations/${organization.id}/members/${admin.user.id}`), 409, "last_owner");
  });

  it("breaks a tie of permissions by the longest-standing membership", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const elder = await memberWithRole(env, organization.id, "admin");
    const younger = await memberWithRole(env, organization.id, "admin");
    await deleteThroughServerApi(env, owner.user.id);
    expect(await membersOf(env, organization.id)).toEqual([
      { userId: elder.user.id, role: "owner" },
      { userId: younger.user.id, role: "admin" },
    ]);
  });

  it("counts org:* permissions of custom roles, and promotes a plain member when no one holds more", async () => {
    const env = await newEnvironment();
    await env.api.put("/roles", {
      items: [
        { key: "owner", name: "Owner", permissions: OWNER_PERMISSIONS },
        { key: "recruiter", name: "Recruiter", permissions: ["org:invitations:manage", "app:jobs:write"] },
        { key: "viewer", name: "Viewer", permissions: ["app:a", "app:b", "app:c"] },
      ],
    });
    const { organization, owner } = await organizationWithOwner(env);
    const viewer = await memberWithRole(env, organization.id, "viewer");
    const recruiter = await memberWithRole(env, organization.id, "recruiter");
    await deleteThroughServerApi(env, owner.user.id);
    expect(await membersOf(env, organization.id)).toEqual([
      { userId: viewer.user.id, role: "viewer" },
      { userId: recruiter.user.id, role: "owner" },
    ]);

    const second = await organizationWithOwner(env, "Second");
    const onlyViewer = await memberWithRole(env, second.organization.id, "viewer");
    await deleteThroughServerApi(env, second.owner.user.id);
    expect(await membersOf(env, second.organization.id)).toEqual([{ userId: onlyViewer.user.id, role: "owner" }]);
  });

  it("deletes an organization no one else belongs to, audited, with its invitations", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const invited = await owner.client.post(`/organizations/${organization.id}/invitations`, { email: uniqueEmail(), role: "member" });
    expect(invited.status, invited.text).toBe(200);
    await deleteThroughServerApi(env, owner.user.id);
    expectProblem(await env.api.get(`/organizations/${organization.id}`), 404, "resource_not_found");
    expect(await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organization.id))).toEqual([]);
    expect(await eventsOf(organization.id, "organization.deleted")).toMatchObject([{ actorType: "secret_key", data: { slug: organization.slug, members: 1 } }]);
    expect(await eventsOf(organization.id, "organization.owner_promoted")).toEqual([]);
  });

  it("does not count a member who is deleted already: the organization goes", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const ghost = await memberWithRole(env, organization.id, "admin");
    // A membership left behind by a deletion made before deletions released memberships.
    await getDb().update(users).set({ status: "deleted" }).where(eq(users.id, ghost.user.id));
    await deleteThroughServerApi(env, owner.user.id);
    expectProblem(await env.api.get(`/organizations/${organization.id}`), 404, "resource_not_found");
  });
});

describe("deleting a member who is not the last owner", () => {
  it("prefers an active member to a banned one, also when the only other owner is banned", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const bannedAdmin = await memberWithRole(env, organization.id, "admin");
    const activeAdmin = await memberWithRole(env, organization.id, "admin");
    expect((await env.api.post(`/users/${bannedAdmin.user.id}/ban`, {})).status).toBe(200);
    await deleteThroughServerApi(env, owner.user.id);
    expect(await membersOf(env, organization.id)).toEqual([
      { userId: bannedAdmin.user.id, role: "admin" },
      { userId: activeAdmin.user.id, role: "owner" },
    ]);
    // Now the active owner goes, and the banned admin is promoted only when no active member is left.
    const bannedOwner = await memberWithRole(env, organization.id, "owner");
    const member = await memberWithRole(env, organization.id, "member");
    expect((await env.api.post(`/users/${bannedOwner.user.id}/ban`, {})).status).toBe(200);
    await deleteThroughServerApi(env, activeAdmin.user.id);
    expect(await membersOf(env, organization.id)).toEqual([
      { userId: bannedAdmin.user.id, role: "admin" },
      { userId: bannedOwner.user.id, role: "owner" },
      { userId: member.user.id, role: "owner" },
    ]);
  });

  it("with only banned members left, a banned owner keeps it; else the strongest banned member is promoted", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const bannedOwner = await memberWithRole(env, organization.id, "owner");
    expect((await env.api.post(`/users/${bannedOwner.user.id}/ban`, {})).status).toBe(200);
    await deleteThroughServerApi(env, owner.user.id);
    expect(await membersOf(env, organization.id)).toEqual([{ userId: bannedOwner.user.id, role: "owner" }]);
    expect(await eventsOf(organization.id, "organization.owner_promoted")).toEqual([]);

    const other = await organizationWithOwner(env, "Other");
    const bannedMember = await memberWithRole(env, other.organization.id, "member");
    expect((await env.api.post(`/users/${bannedMember.user.id}/ban`, {})).status).toBe(200);
    await deleteThroughServerApi(env, other.owner.user.id);
    expect(await membersOf(env, other.organization.id)).toEqual([{ userId: bannedMember.user.id, role: "owner" }]);
  });

  it("leaves a co-owned organization to the other owner, with no promotion", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const coOwner = await memberWithRole(env, organization.id, "owner");
    const admin = await memberWithRole(env, organization.id, "admin");
    await deleteThroughServerApi(env, owner.user.id);
    expect(await membersOf(env, organization.id)).toEqual([
      { userId: coOwner.user.id, role: "owner" },
      { userId: admin.user.id, role: "admin" },
    ]);
    expect(await eventsOf(organization.id, "organization.owner_promoted")).toEqual([]);
  });

  it("removes every membership of an admin or member, audited, and revokes the invitations they sent (regression: they stayed pending)", async () => {
    const env = await newEnvironment();
    const first = await organizationWithOwner(env, "First");
    const second = await organizationWithOwner(env, "Second");
    const admin = await memberWithRole(env, first.organization.id, "admin");
    await env.api.post(`/organizations/${second.organization.id}/members`, { userId: admin.user.id, role: "member" });
    const sent = await admin.client.post(`/organizations/${first.organization.id}/invitations`, { email: uniqueEmail(), role: "member" });
    expect(sent.status, sent.text).toBe(200);
    await deleteThroughServerApi(env, admin.user.id);
    expect(await membersOf(env, first.organization.id)).toEqual([{ userId: first.owner.user.id, role: "owner" }]);
    expect(await membersOf(env, second.organization.id)).toEqual([{ userId: second.owner.user.id, role: "owner" }]);
    expect((await eventsOf(first.organization.id, "organization.member_removed")).map((e) => e.data)).toEqual([{ userId: admin.user.id, role: "admin" }]);
    expect((await eventsOf(second.organization.id, "organization.member_removed")).map((e) => e.data)).toEqual([{ userId: admin.user.id, role: "member" }]);
    // A deleted user offers no role: the invitation is revoked in the deletion's transaction, audited as a revoke.
    const [invitation] = await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.id, sent.body.id));
    expect(invitation).toMatchObject({ status: "revoked", invitedBy: admin.user.id });
    const [revoked] = await eventsOf(first.organization.id, "organization.invitation_revoked");
    const [removed] = await eventsOf(first.organization.id, "organization.member_removed");
    expect(revoked).toMatchObject({ actorType: "secret_key", data: { invitationId: sent.body.id }, requestId: removed?.requestId });
  });

  it("deleting twice changes nothing more", async () => {
    const env = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(env);
    const admin = await memberWithRole(env, organization.id, "admin");
    await deleteThroughServerApi(env, owner.user.id);
    await deleteThroughServerApi(env, owner.user.id);
    expect(await eventsOf(organization.id, "organization.owner_promoted")).toHaveLength(1);
    expect(await membersOf(env, organization.id)).toEqual([{ userId: admin.user.id, role: "owner" }]);
  });
});

describe("the user's own account deletion", () => {
  it("hands the organization over the same way", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(env.publishableKey, email, STRONG_PASSWORD);
    const created = await client.post("/organizations", { name: "Mine" });
    expect(created.status, created.text).toBe(201);
    const alone = await client.post("/organizations", { name: "Solo" });
    const admin = await memberWithRole(env, created.body.id, "admin");
    expect((await client.post("/users/me/delete/request", { confirmation: email })).status).toBe(200);
    const link = /https?:\/\/\S+\/account\/delete\?\S+/.exec((await latestEmail(email, "account_deletion_link")).text)?.[0];
    const token = new URL(link ?? "").searchParams.get("token");
    const confirmed = await clientApi(env.publishableKey).post("/users/me/delete/confirm", { token });
    expect(confirmed.status, confirmed.text).toBe(200);

    expect(await membersOf(env, created.body.id)).toEqual([{ userId: admin.user.id, role: "owner" }]);
    expectProblem(await env.api.get(`/organizations/${alone.body.id}`), 404, "resource_not_found");
    const [promoted] = await eventsOf(created.body.id, "organization.owner_promoted");
    expect(promoted).toMatchObject({ actorType: "user", actorId: session.user.id });
    expect(await eventsOf(alone.body.id, "organization.deleted")).toMatchObject([{ actorType: "user", actorId: session.user.id }]);
    expect((await env.api.get(`/users/${session.user.id}`)).body.organizations).toEqual([]);
  });
});

describe("concurrency", () => {
  it("deleting two owners who share organizations at once queues instead of deadlocking (organizations locked in id order)", async () => {
    const env = await newEnvironment();
    const a = await createUser(env.api, {});
    const b = await createUser(env.api, {});
    const heir = await createUser(env.api, {});
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const org = await env.api.post("/organizations", { name: `Shared ${i}`, createdBy: a.id });
      await env.api.post(`/organizations/${org.body.id}/members`, { userId: b.id, role: "owner" });
      await env.api.post(`/organizations/${org.body.id}/members`, { userId: heir.id, role: "member" });
      ids.push(org.body.id);
    }
    // Memberships made in opposite orders: without the id order, each deletion would lock them in its own order.
    await getDb()
      .update(organizationMemberships)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(and(eq(organizationMemberships.userId, b.id), inArray(organizationMemberships.organizationId, ids.slice(3))));
    const [first, second] = await Promise.all([env.api.delete(`/users/${a.id}`), env.api.delete(`/users/${b.id}`)]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    for (const id of ids) expect(await membersOf(env, id)).toEqual([{ userId: heir.id, role: "owner" }]);
    const remaining = await getDb().select().from(organizations).where(inArray(organizations.id, ids));
    expect(remaining).toHaveLength(6);
  });

  it("adding a user to an organization they belong to while they are deleted answers 409, not a deadlock", async () => {
    const env = await newEnvironment();
    const { organization } = await organizationWithOwner(env);
    for (let round = 0; round < 5; round++) {
      const member = await memberWithRole(env, organization.id, "member");
      const [deleted, added] = await Promise.all([
        env.api.delete(`/users/${member.user.id}`),
        env.api.post(`/organizations/${organization.id}/members`, { userId: member.user.id, role: "member" }),
      ]);
      expect(deleted.status, deleted.text).toBe(200);
      expect([404, 409], added.text).toContain(added.status);
    }
  });
});
