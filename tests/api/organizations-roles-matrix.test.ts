import { beforeAll, describe, expect, it } from "vitest";
import { expectProblem, type ApiResponse } from "../helpers/api";
import type { ClientApi } from "../helpers/client";
import { newEnvironment } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner, signedInUser, type TestEnvironment } from "../helpers/organizations";

/*
 * The role matrix: every Client API organization operation, called by each kind of
 * caller. Members of any role read; only roles granting org:members:manage change
 * or remove others, and only those granting org:settings:manage change or delete the
 * organization; everyone outside the organization gets 404, as if it did not exist.
 */

const CUSTOM_ROLES = [
  { key: "owner", name: "Owner", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"] },
  { key: "admin", name: "Admin", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"] },
  { key: "member", name: "Member", permissions: [] },
  { key: "manager", name: "Member manager", permissions: ["org:members:manage"] },
  { key: "viewer", name: "Viewer", permissions: ["app:reports:read", "org:invitations:manage", "org:settings:manage"] },
  { key: "guest", name: "Guest", permissions: [] },
];

type Caller = "owner" | "admin" | "member" | "manager" | "viewer" | "nonMember" | "otherOrgMember" | "otherEnvironmentUser";
const CALLERS: Caller[] = ["owner", "admin", "member", "manager", "viewer", "nonMember", "otherOrgMember", "otherEnvironmentUser"];
const MANAGERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "manager"]);
const MEMBERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "member", "manager", "viewer"]);
/** The custom "viewer" has org:settings:manage, the custom "manager" lacks it. */
const SETTINGS_MANAGERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "viewer"]);
const INVITERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "viewer"]);
const MEMBER_ROLES = ["admin", "member", "manager", "viewer"] as const;

let env: TestEnvironment;
let organizationId: string;
const clients = {} as Record<Caller, ClientApi>;
const userIds = {} as Record<(typeof MEMBER_ROLES)[number] | "owner", string>;

beforeAll(async () => {
  env = await newEnvironment();
  const roles = await env.api.put("/roles", { items: CUSTOM_ROLES });
  expect(roles.status, roles.text).toBe(200);
  const created = await organizationWithOwner(env, "Matrix Org");
  organizationId = created.organization.id;
  clients.owner = created.owner.client;
  userIds.owner = created.owner.user.id;
  for (const role of MEMBER_ROLES) {
    const member = await memberWithRole(env, organizationId, role);
    clients[role] = member.client;
    userIds[role] = member.user.id;
  }
  clients.nonMember = (await signedInUser(env)).client;
  clients.otherOrgMember = (await organizationWithOwner(env, "Other Org")).owner.client;
  // A user of another environment, signed in there, asking that environment about this organization.
  clients.otherEnvironmentUser = (await organizationWithOwner(await newEnvironment(), "Elsewhere")).owner.client;
});

/** A fresh organization with the matrix's members in the same roles, for an operation that destroys it. */
async function disposableOrganization(): Promise<string> {
  const res = await env.api.post("/organizations", { name: "Disposable", createdBy: userIds.owner });
  expect(res.status, res.text).toBe(201);
  for (const role of MEMBER_ROLES) {
    const added = await env.api.post(`/organizations/${res.body.id}/members`, { userId: userIds[role], role });
    expect(added.status, added.text).toBe(201);
  }
  return res.body.id as string;
}

function expectOutcome(res: ApiResponse, caller: Caller, allowed: boolean, success: number): void {
  if (!MEMBERS.has(caller)) return expectProblem(res, 404, "resource_not_found");
  if (!allowed) return expectProblem(res, 403, "forbidden");
  expect(res.status, `${caller}: ${res.text}`).toBe(success);
}

describe("the role matrix", () => {
  it.each(CALLERS)("GET /organizations/{id} as %s", async (caller) => {
    const res = await clients[caller].get(`/organizations/${organizationId}`);
    expectOutcome(res, caller, true, 200);
    if (res.status === 200) {
      const role = CUSTOM_ROLES.find((r) => r.key === caller);
      expect(res.body).toMatchObject({ id: organizationId, name: "Matrix Org", slug: "matrix-org", role: caller, roleName: role?.name, permissions: role?.permissions });
    }
  });

  it.each(CALLERS)("GET /organizations/{id}/roles as %s", async (caller) => {
    const res = await clients[caller].get(`/organizations/${organizationId}/roles`);
    expectOutcome(res, caller, true, 200);
    if (res.status === 200) expect(res.body.items).toEqual(CUSTOM_ROLES);
  });

  it.each(CALLERS)("GET /organizations/{id}/members as %s", async (caller) => {
    const res = await clients[caller].get(`/organizations/${organizationId}/members?limit=100`);
    expectOutcome(res, caller, true, 200);
    if (res.status === 200) expect(res.body.items.map((m: { role: string }) => m.role)).toEqual(expect.arrayContaining(["owner", "admin", "member", "manager", "viewer"]));
  });

  it.each(CALLERS)("PATCH /organizations/{id}/members/{userId} as %s", async (caller) => {
    const target = await memberWithRole(env, organizationId, "member");
    const res = await clients[caller].patch(`/organizations/${organizationId}/members/${target.user.id}`, { role: "guest" });
    expectOutcome(res, caller, MANAGERS.has(caller), 200);
    if (res.status === 200) expect(res.body).toMatchObject({ userId: target.user.id, role: "guest", roleName: "Guest", email: target.email });
    const after = await env.api.get(`/organizations/${organizationId}/members?limit=100`);
    const stored = after.body.items.find((m: { userId: string }) => m.userId === target.user.id);
    expect(stored.role).toBe(MANAGERS.has(caller) ? "guest" : "member");
  });

  it.each(CALLERS)("DELETE /organizations/{id}/members/{userId} (someone else) as %s", async (caller) => {
    const target = await memberWithRole(env, organizationId, "member");
    const res = await clients[caller].delete(`/organizations/${organizationId}/members/${target.user.id}`);
    expectOutcome(res, caller, MANAGERS.has(caller), 204);
    const stillThere = await target.client.get(`/organizations/${organizationId}`);
    expect(stillThere.status).toBe(MANAGERS.has(caller) ? 404 : 200);
  });

  it.each(CALLERS)("PATCH /organizations/{id} (settings) as %s", async (caller) => {
    const logoUrl = `https://cdn.example.com/${caller}.png`;
    const res = await clients[caller].patch(`/organizations/${organizationId}`, { logoUrl });
    expectOutcome(res, caller, SETTINGS_MANAGERS.has(caller), 200);
    if (res.status === 200) expect(res.body).toMatchObject({ id: organizationId, logoUrl, role: caller });
    const after = await env.api.get(`/organizations/${organizationId}`);
    expect(after.body.logoUrl === logoUrl).toBe(SETTINGS_MANAGERS.has(caller));
  });

  it.each(CALLERS)("DELETE /organizations/{id} as %s", async (caller) => {
    const disposable = await disposableOrganization();
    const res = await clients[caller].delete(`/organizations/${disposable}`);
    // org:settings:manage and the owner role: deleting removes the owners with it.
    expectOutcome(res, caller, caller === "owner", 204);
    if (res.status === 403) expect(res.body.detail).toMatch(SETTINGS_MANAGERS.has(caller) ? /only an owner/ : /org:settings:manage/);
    expect((await env.api.get(`/organizations/${disposable}`)).status).toBe(caller === "owner" ? 404 : 200);
  });

  it.each(CALLERS)("POST /organizations/{id}/invitations as %s", async (caller) => {
    const email = `matrix-${caller}-${Date.now()}@example.com`;
    const res = await clients[caller].post(`/organizations/${organizationId}/invitations`, { email, role: "guest" });
    expectOutcome(res, caller, INVITERS.has(caller), 200);
    const pending = await env.api.get(`/organizations/${organizationId}/invitations?limit=100`);
    expect(pending.body.items.some((i: { email: string }) => i.email === email)).toBe(INVITERS.has(caller));
  });

  it.each(CALLERS)("GET /organizations/{id}/invitations as %s", async (caller) => {
    const res = await clients[caller].get(`/organizations/${organizationId}/invitations`);
    expectOutcome(res, caller, INVITERS.has(caller), 200);
    if (res.status === 200) for (const item of res.body.items) expect(item).not.toHaveProperty("token");
  });

  it.each(CALLERS)("resend and revoke an invitation as %s", async (caller) => {
    const invited = await env.api.post(`/organizations/${organizationId}/invitations`, { email: `matrix-r-${caller}-${Date.now()}@example.com`, role: "guest" });
    expect(invited.status, invited.text).toBe(201);
    const base = `/organizations/${organizationId}/invitations/${invited.body.id}`;
    expectOutcome(await clients[caller].post(`${base}/resend`), caller, INVITERS.has(caller), 200);
    expectOutcome(await clients[caller].delete(base), caller, INVITERS.has(caller), 200);
    const revoked = await env.api.get(`/organizations/${organizationId}/invitations?status=revoked&limit=100`);
    expect(revoked.body.items.some((i: { id: string }) => i.id === invited.body.id)).toBe(INVITERS.has(caller));
  });

  it.each(CALLERS)("POST /organizations/active as %s", async (caller) => {
    const res = await clients[caller].post("/organizations/active", { organizationId });
    expectOutcome(res, caller, true, 200);
    await clients[caller].post("/organizations/active", { organizationId: null });
  });

  it.each(CALLERS)("GET /organizations (list mine) as %s lists only its own organizations", async (caller) => {
    const res = await clients[caller].get("/organizations");
    expect(res.status).toBe(200);
    const ids = res.body.items.map((o: { id: string }) => o.id);
    expect(ids.includes(organizationId)).toBe(MEMBERS.has(caller));
  });

  it("a member of any role may leave, and is then outside", async () => {
    for (const role of ["admin", "member", "manager", "viewer"]) {
      const leaver = await memberWithRole(env, organizationId, role);
      const res = await leaver.client.delete(`/organizations/${organizationId}/members/${leaver.user.id}`);
      expect(res.status, `${role}: ${res.text}`).toBe(204);
      expectProblem(await leaver.client.get(`/organizations/${organizationId}`), 404, "resource_not_found");
    }
  });

  it("an unknown organization id is 404 and a malformed one 400, for members too", async () => {
    expectProblem(await clients.owner.get("/organizations/6f1c1a4e-0000-4000-8000-000000000000"), 404, "resource_not_found");
    expectProblem(await clients.owner.get("/organizations/not-a-uuid/members"), 400, "invalid_request");
    expectProblem(await clients.owner.patch(`/organizations/${organizationId}/members/nope`, { role: "member" }), 400, "invalid_request");
  });
});
