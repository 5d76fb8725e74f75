import { beforeAll, describe, expect, it } from "vitest";
import { expectProblem, type ApiResponse } from "../helpers/api";
import type { ClientApi } from "../helpers/client";
import { newEnvironment } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner, signedInUser, type TestEnvironment } from "../helpers/organizations";

/*
 * The role matrix: every Client API organization operation, called by each kind of
 * caller. Members of any role read; only roles granting org:members:manage change
 * or remove others; everyone outside the organization gets 404, as if it did not exist.
 */

const CUSTOM_ROLES = [
  { key: "owner", name: "Owner", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"] },
  { key: "admin", name: "Admin", permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"] },
  { key: "member", name: "Member", permissions: [] },
  { key: "manager", name: "Member manager", permissions: ["org:members:manage"] },
  { key: "viewer", name: "Viewer", permissions: ["app:reports:read", "org:invitations:manage", "org:settings:manage"] },
];

type Caller = "owner" | "admin" | "member" | "manager" | "viewer" | "nonMember" | "otherOrgMember" | "otherEnvironmentUser";
const CALLERS: Caller[] = ["owner", "admin", "member", "manager", "viewer", "nonMember", "otherOrgMember", "otherEnvironmentUser"];
const MANAGERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "manager"]);
const MEMBERS: ReadonlySet<Caller> = new Set<Caller>(["owner", "admin", "member", "manager", "viewer"]);

let env: TestEnvironment;
let organizationId: string;
const clients = {} as Record<Caller, ClientApi>;

beforeAll(async () => {
  env = await newEnvironment();
  const roles = await env.api.put("/roles", { items: CUSTOM_ROLES });
  expect(roles.status, roles.text).toBe(200);
  const created = await organizationWithOwner(env, "Matrix Org");
  organizationId = created.organization.id;
  clients.owner = created.owner.client;
  for (const role of ["admin", "member", "manager", "viewer"] as const) clients[role] = (await memberWithRole(env, organizationId, role)).client;
  clients.nonMember = (await signedInUser(env)).client;
  clients.otherOrgMember = (await organizationWithOwner(env, "Other Org")).owner.client;
  // A user of another environment, signed in there, asking that environment about this organization.
  clients.otherEnvironmentUser = (await organizationWithOwner(await newEnvironment(), "Elsewhere")).owner.client;
});

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
    const res = await clients[caller].patch(`/organizations/${organizationId}/members/${target.user.id}`, { role: "viewer" });
    expectOutcome(res, caller, MANAGERS.has(caller), 200);
    if (res.status === 200) expect(res.body).toMatchObject({ userId: target.user.id, role: "viewer", roleName: "Viewer", email: target.email });
    const after = await env.api.get(`/organizations/${organizationId}/members?limit=100`);
    const stored = after.body.items.find((m: { userId: string }) => m.userId === target.user.id);
    expect(stored.role).toBe(MANAGERS.has(caller) ? "viewer" : "member");
  });

  it.each(CALLERS)("DELETE /organizations/{id}/members/{userId} (someone else) as %s", async (caller) => {
    const target = await memberWithRole(env, organizationId, "member");
    const res = await clients[caller].delete(`/organizations/${organizationId}/members/${target.user.id}`);
    expectOutcome(res, caller, MANAGERS.has(caller), 204);
    const stillThere = await target.client.get(`/organizations/${organizationId}`);
    expect(stillThere.status).toBe(MANAGERS.has(caller) ? 404 : 200);
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
