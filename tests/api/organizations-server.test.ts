import { describe, expect, it } from "vitest";
import { expectProblem } from "../helpers/api";
import { createUser, newEnvironment, uniqueEmail, unknownId } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner, signedInUser } from "../helpers/organizations";

const OWNER_PERMISSIONS = ["org:members:manage", "org:invitations:manage", "org:settings:manage"];

describe("Server API organizations", () => {
  it("creates (createdBy becomes owner), gets, lists by keyset, updates and deletes", async () => {
    const env = await newEnvironment();
    const creator = await createUser(env.api, { email: uniqueEmail() });
    const created = await env.api.post("/organizations", { name: "Globex", slug: "globex", createdBy: creator.id, privateMetadata: { plan: "pro" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Globex", slug: "globex", createdBy: creator.id, privateMetadata: { plan: "pro" }, publicMetadata: {}, logoUrl: null });
    const id = created.body.id as string;
    const members = await env.api.get(`/organizations/${id}/members`);
    expect(members.body.items).toEqual([expect.objectContaining({ userId: creator.id, role: "owner" })]);

    expectProblem(await env.api.post("/organizations", { name: "Globex 2", slug: "globex" }), 409, "identifier_exists");
    const bare = await env.api.post("/organizations", { name: "No Owner" });
    expect(bare.body.createdBy).toBeNull();

    const page1 = await env.api.get("/organizations?limit=1");
    expect(page1.body).toMatchObject({ items: [{ id: bare.body.id }], hasMore: true, nextCursor: bare.body.id });
    const page2 = await env.api.get(`/organizations?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toMatchObject({ items: [{ id }], hasMore: false, nextCursor: null });

    const updated = await env.api.patch(`/organizations/${id}`, { name: "Globex Corp", logoUrl: "https://img.example/g.png", publicMetadata: { tier: 1 } });
    expect(updated.body).toMatchObject({ name: "Globex Corp", slug: "globex", logoUrl: "https://img.example/g.png", publicMetadata: { tier: 1 } });
    expectProblem(await env.api.patch(`/organizations/${bare.body.id}`, { slug: "globex" }), 409, "identifier_exists");
    expect((await env.api.get(`/organizations/${id}`)).body.name).toBe("Globex Corp");

    expect((await env.api.delete(`/organizations/${id}`)).status).toBe(200);
    expectProblem(await env.api.get(`/organizations/${id}`), 404, "resource_not_found");
    expectProblem(await env.api.get(`/organizations/${id}/members`), 404, "resource_not_found");
  });

  it("refuses hostile input with 400", async () => {
    const env = await newEnvironment();
    for (const body of [{}, { name: "" }, { name: "A", slug: "Not A Slug" }, { name: "A", slug: "-x" }, { name: "A", logoUrl: "javascript:alert(1)" }, { name: "A", createdBy: "x" }, { name: "A", nope: 1 }]) {
      expectProblem(await env.api.post("/organizations", body), 400, "invalid_request");
    }
    expectProblem(await env.api.get("/organizations/xyz"), 400, "invalid_request");
    expectProblem(await env.api.get("/organizations?cursor=nope"), 400, "invalid_request");
    expectProblem(await env.api.get(`/organizations?cursor=${unknownId()}`), 400, "invalid_request");
    expectProblem(await env.api.patch(`/organizations/${unknownId()}`, { name: "x" }), 404, "resource_not_found");
    expectProblem(await env.api.delete(`/organizations/${unknownId()}`), 404, "resource_not_found");
  });

  it("adds, changes and removes members, with the owner rules and limits", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/members`;
    const user = await createUser(env.api, { email: uniqueEmail(), firstName: "Kim" });
    const added = await env.api.post(base, { userId: user.id, role: "admin" });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ userId: user.id, role: "admin", roleName: "Admin", name: "Kim" });
    expectProblem(await env.api.post(base, { userId: user.id, role: "member" }), 409, "already_member");
    expectProblem(await env.api.post(base, { userId: unknownId(), role: "member" }), 404, "resource_not_found");
    expectProblem(await env.api.post(base, { userId: (await createUser(env.api, {})).id, role: "emperor" }), 400, "invalid_request");
    expectProblem(await env.api.post(`/organizations/${unknownId()}/members`, { userId: user.id, role: "member" }), 404, "resource_not_found");

    expect((await env.api.patch(`${base}/${user.id}`, { role: "member" })).body).toMatchObject({ role: "member", roleName: "Member" });
    expectProblem(await env.api.patch(`${base}/${owner.user.id}`, { role: "member" }), 409, "last_owner");
    expectProblem(await env.api.delete(`${base}/${owner.user.id}`), 409, "last_owner");
    expect((await env.api.delete(`${base}/${user.id}`)).status).toBe(204);
    expectProblem(await env.api.delete(`${base}/${user.id}`), 404, "resource_not_found");

    await env.api.patch("/environment", { organizations: { maxMembers: 2 } });
    await env.api.post(base, { userId: user.id, role: "member" });
    expectProblem(await env.api.post(base, { userId: (await createUser(env.api, {})).id, role: "member" }), 409, "organization_limit_reached");
  });

  it("the per-user organization limit holds for Server API additions too", async () => {
    const env = await newEnvironment();
    await env.api.patch("/environment", { organizations: { maxPerUser: 1 } });
    const { owner } = await organizationWithOwner(env);
    const other = await env.api.post("/organizations", { name: "Second" });
    expectProblem(await env.api.post(`/organizations/${other.body.id}/members`, { userId: owner.user.id, role: "member" }), 409, "organization_limit_reached");
  });
});

describe("Server API role set", () => {
  it("starts with owner, admin and member, and is replaced whole", async () => {
    const env = await newEnvironment();
    const defaults = await env.api.get("/roles");
    expect(defaults.body.items.map((r: { key: string }) => r.key)).toEqual(["owner", "admin", "member"]);
    const items = [
      { key: "owner", name: "Owner", permissions: OWNER_PERMISSIONS },
      { key: "billing", name: "Billing", permissions: ["app:invoices:read"] },
      { key: "member", name: "Member", permissions: [] },
    ];
    const replaced = await env.api.put("/roles", { items });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.items).toEqual(items);
    expect((await env.api.get("/roles")).body.items).toEqual(items);
    // The new set applies to memberships at once.
    const { organization } = await organizationWithOwner(env);
    const billing = await memberWithRole(env, organization.id, "billing");
    const view = await billing.client.get(`/organizations/${organization.id}`);
    expect(view.body).toMatchObject({ role: "billing", roleName: "Billing", permissions: ["app:invoices:read"] });
    expectProblem(await billing.client.patch(`/organizations/${organization.id}/members/${billing.user.id}`, { role: "member" }), 403, "forbidden");
    expectProblem(await env.api.post(`/organizations/${organization.id}/members`, { userId: (await createUser(env.api, {})).id, role: "admin" }), 400, "invalid_request");
  });

  it("keeps an owner with every org:* permission, unique keys, and roles in use", async () => {
    const env = await newEnvironment();
    const owner = { key: "owner", name: "Owner", permissions: OWNER_PERMISSIONS };
    expectProblem(await env.api.put("/roles", { items: [{ key: "admin", name: "Admin", permissions: OWNER_PERMISSIONS }] }), 400, "invalid_request");
    expectProblem(await env.api.put("/roles", { items: [{ ...owner, permissions: ["org:members:manage"] }] }), 400, "invalid_request");
    expectProblem(await env.api.put("/roles", { items: [owner, owner] }), 400, "invalid_request");
    for (const items of [[], [{ key: "Bad Key", name: "x", permissions: [] }], [{ key: "x", name: "", permissions: [] }], [{ ...owner, permissions: ["UPPER"] }]]) {
      expectProblem(await env.api.put("/roles", { items }), 400, "invalid_request");
    }
    expectProblem(await env.api.put("/roles", {}), 400, "invalid_request");
    const { organization } = await organizationWithOwner(env);
    await memberWithRole(env, organization.id, "admin");
    const dropAdmin = await env.api.put("/roles", { items: [owner, { key: "member", name: "Member", permissions: [] }] });
    expectProblem(dropAdmin, 409, "role_in_use");
    expect((await env.api.get("/roles")).body.items.map((r: { key: string }) => r.key)).toEqual(["owner", "admin", "member"]);
  });
});

describe("isolation between environments", () => {
  it("another environment's secret key cannot see or change an organization", async () => {
    const envA = await newEnvironment();
    const envB = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(envA);
    const base = `/organizations/${organization.id}`;
    expectProblem(await envB.api.get(base), 404, "resource_not_found");
    expectProblem(await envB.api.patch(base, { name: "Hijacked" }), 404, "resource_not_found");
    expectProblem(await envB.api.delete(base), 404, "resource_not_found");
    expectProblem(await envB.api.get(`${base}/members`), 404, "resource_not_found");
    const userB = await createUser(envB.api, {});
    expectProblem(await envB.api.post(`${base}/members`, { userId: userB.id, role: "member" }), 404, "resource_not_found");
    expectProblem(await envB.api.patch(`${base}/members/${owner.user.id}`, { role: "member" }), 404, "resource_not_found");
    expectProblem(await envB.api.delete(`${base}/members/${owner.user.id}`), 404, "resource_not_found");
    expect((await envB.api.get("/organizations")).body.items).toEqual([]);
    // A user of another environment cannot join, even through the right environment's key.
    expectProblem(await envA.api.post(`${base}/members`, { userId: userB.id, role: "member" }), 403, "environment_mismatch");
    expectProblem(await envA.api.post("/organizations", { name: "X", createdBy: userB.id }), 403, "environment_mismatch");
    expect((await envA.api.get(base)).body.name).toBe("Acme Inc");
  });

  it("role sets are per environment", async () => {
    const envA = await newEnvironment();
    const envB = await newEnvironment();
    await envA.api.put("/roles", { items: [{ key: "owner", name: "Boss", permissions: OWNER_PERMISSIONS }, { key: "member", name: "Member", permissions: [] }] });
    expect((await envB.api.get("/roles")).body.items.map((r: { key: string }) => r.key)).toEqual(["owner", "admin", "member"]);
    const { owner } = await organizationWithOwner(envB);
    expect((await owner.client.get("/organizations")).body.items[0]).toMatchObject({ role: "owner", roleName: "Owner" });
  });

  it("a signed-in user of another environment gets 404 for every client operation on the organization", async () => {
    const envA = await newEnvironment();
    const envB = await newEnvironment();
    const { organization, owner } = await organizationWithOwner(envA);
    const outsider = await signedInUser(envB);
    const base = `/organizations/${organization.id}`;
    expectProblem(await outsider.client.get(base), 404, "resource_not_found");
    expectProblem(await outsider.client.get(`${base}/roles`), 404, "resource_not_found");
    expectProblem(await outsider.client.get(`${base}/members`), 404, "resource_not_found");
    expectProblem(await outsider.client.patch(`${base}/members/${owner.user.id}`, { role: "member" }), 404, "resource_not_found");
    expectProblem(await outsider.client.delete(`${base}/members/${owner.user.id}`), 404, "resource_not_found");
  });
});
