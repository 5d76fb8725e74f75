import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, organizationInvitations, organizationMemberships, organizations } from "@/db/schema";
import { call, expectProblem, problemFields, type ApiResponse } from "../helpers/api";
import { ageSignIn, type ClientApi } from "../helpers/client";
import { newEnvironment, unknownId } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner, signedInUser } from "../helpers/organizations";

async function organizationEvents(environmentId: string, organizationId: string) {
  const rows = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.environmentId, environmentId), eq(events.subjectId, organizationId)))
    .orderBy(events.createdAt);
  return rows.map((row) => ({ type: row.type, actorId: row.actorId, data: row.data }));
}

describe("create and list mine", () => {
  it("makes the caller owner, derives a unique slug, lists it with the caller's role, and audits it", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env, "Ærø Bikes & Co.");
    expect(organization).toMatchObject({ name: "Ærø Bikes & Co.", slug: "aero-bikes-co", role: "owner", roleName: "Owner" });
    const second = await owner.client.post("/organizations", { name: "aero bikes co" });
    expect(second.status).toBe(201);
    expect(second.body.slug).toMatch(/^aero-bikes-co-[0-9a-f]{6}$/);
    const mine = await owner.client.get("/organizations");
    expect(mine.body.items).toEqual([
      { id: organization.id, name: "Ærø Bikes & Co.", role: "owner", roleName: "Owner" },
      { id: second.body.id, name: "aero bikes co", role: "owner", roleName: "Owner" },
    ]);
    expect(await organizationEvents(env.environmentId, organization.id)).toEqual([
      { type: "organization.created", actorId: owner.user.id, data: { slug: "aero-bikes-co" } },
      { type: "organization.member_added", actorId: owner.user.id, data: { userId: owner.user.id, role: "owner" } },
    ]);
  });

  it("refuses hostile input with 400, never 500", async () => {
    const env = await newEnvironment();
    const { client } = await signedInUser(env);
    for (const body of [{}, { name: "" }, { name: "   " }, { name: 5 }, { name: "x".repeat(101) }, { name: "ok", extra: 1 }, null, []]) {
      expectProblem(await client.post("/organizations", body), 400, "invalid_request");
    }
    const odd = await client.post("/organizations", { name: "!!!" });
    expect(odd.body.slug).toBe("org");
  });

  it("needs a signed-in user", async () => {
    const env = await newEnvironment();
    const { clientApi } = await import("../helpers/client");
    expectProblem(await clientApi(env.publishableKey).get("/organizations"), 401, "unauthorized");
  });

  it("answers 403 forbidden while organizations are off, and 409 past maxPerUser", async () => {
    const env = await newEnvironment();
    const { client } = await signedInUser(env);
    await env.api.patch("/environment", { organizations: { enabled: false } });
    const off = await client.get("/organizations");
    expectProblem(off, 403, "forbidden");
    expect(off.body.detail).toMatch(/turned off/);
    expectProblem(await client.post("/organizations", { name: "No" }), 403, "forbidden");
    await env.api.patch("/environment", { organizations: { enabled: true, maxPerUser: 1 } });
    expect((await client.post("/organizations", { name: "One" })).status).toBe(201);
    expectProblem(await client.post("/organizations", { name: "Two" }), 409, "organization_limit_reached");
  });

  it("turning organizations off also closes the operations on one organization", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    await env.api.patch("/environment", { organizations: { enabled: false } });
    expectProblem(await owner.client.get(`/organizations/${organization.id}`), 403, "forbidden");
    expectProblem(await owner.client.get(`/organizations/${organization.id}/members`), 403, "forbidden");
  });
});

describe("members list", () => {
  it("pages by keyset oldest first and searches by name or email", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const names = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Barbara Liskov"];
    const members = [];
    for (const [first, last] of names.map((n) => n.split(" "))) members.push(await memberWithRole(env, organization.id, "member", { firstName: first, lastName: last }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await owner.client.get(`/organizations/${organization.id}/members?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.items.map((m: { userId: string }) => m.userId));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([owner.user.id, ...members.map((m) => m.user.id)]);

    const byName = await owner.client.get(`/organizations/${organization.id}/members?query=hopp`);
    expect(byName.body.items.map((m: { name: string }) => m.name)).toEqual(["Grace Hopper"]);
    const byEmail = await owner.client.get(`/organizations/${organization.id}/members?query=${encodeURIComponent(members[3]!.email)}`);
    expect(byEmail.body.items).toEqual([expect.objectContaining({ userId: members[3]!.user.id, name: "Barbara Liskov", role: "member", roleName: "Member" })]);
    const wildcard = await owner.client.get(`/organizations/${organization.id}/members?query=%25`);
    expect(wildcard.body.items).toEqual([]);
  });

  it("refuses a bad limit or cursor with 400", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    for (const query of ["limit=0", "limit=101", "limit=abc", "cursor=nope", `cursor=${unknownId()}`]) {
      expectProblem(await owner.client.get(`/organizations/${organization.id}/members?${query}`), 400, "invalid_request");
    }
  });

  it("does not show members of another organization", async () => {
    const env = await newEnvironment();
    const a = await organizationWithOwner(env, "A");
    const b = await organizationWithOwner(env, "B");
    await memberWithRole(env, b.organization.id, "member");
    const res = await a.owner.client.get(`/organizations/${a.organization.id}/members`);
    expect(res.body.items.map((m: { userId: string }) => m.userId)).toEqual([a.owner.user.id]);
    // A cursor taken from B's list does not page A's.
    const fromB = (await b.owner.client.get(`/organizations/${b.organization.id}/members?limit=1`)).body.nextCursor;
    expectProblem(await a.owner.client.get(`/organizations/${a.organization.id}/members?cursor=${fromB}`), 400, "invalid_request");
  });
});

describe("owner rules", () => {
  it("the last owner can neither leave nor be demoted; with a second owner both work", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/members`;
    expectProblem(await owner.client.delete(`${base}/${owner.user.id}`), 409, "last_owner");
    expectProblem(await owner.client.patch(`${base}/${owner.user.id}`, { role: "admin" }), 409, "last_owner");
    const second = await memberWithRole(env, organization.id, "member");
    const promoted = await owner.client.patch(`${base}/${second.user.id}`, { role: "owner" });
    expect(promoted.body).toMatchObject({ role: "owner", roleName: "Owner" });
    expect((await owner.client.patch(`${base}/${owner.user.id}`, { role: "admin" })).status).toBe(200);
    expectProblem(await second.client.delete(`${base}/${second.user.id}`), 409, "last_owner");
    expect((await second.client.delete(`${base}/${owner.user.id}`)).status).toBe(204);
    const types = (await organizationEvents(env.environmentId, organization.id)).map((e) => e.type);
    expect(types).toEqual([
      "organization.created",
      "organization.member_added",
      "organization.member_added",
      "organization.role_changed",
      "organization.role_changed",
      "organization.member_removed",
    ]);
  });

  it("only an owner makes or unmakes owners: an admin cannot promote, demote or remove an owner", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/members`;
    const admin = await memberWithRole(env, organization.id, "admin");
    const member = await memberWithRole(env, organization.id, "member");
    expectProblem(await admin.client.patch(`${base}/${member.user.id}`, { role: "owner" }), 403, "forbidden");
    expectProblem(await admin.client.patch(`${base}/${admin.user.id}`, { role: "owner" }), 403, "forbidden");
    expectProblem(await admin.client.patch(`${base}/${owner.user.id}`, { role: "member" }), 403, "forbidden");
    expectProblem(await admin.client.delete(`${base}/${owner.user.id}`), 403, "forbidden");
    expect((await admin.client.patch(`${base}/${member.user.id}`, { role: "admin" })).status).toBe(200);
    expect((await owner.client.patch(`${base}/${admin.user.id}`, { role: "owner" })).status).toBe(200);
  });

  it("two owners demoting each other at once: exactly one succeeds", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const base = `/organizations/${organization.id}/members`;
    const other = await memberWithRole(env, organization.id, "owner");
    const results = await Promise.all([
      owner.client.patch(`${base}/${other.user.id}`, { role: "member" }),
      other.client.patch(`${base}/${owner.user.id}`, { role: "member" }),
      owner.client.delete(`${base}/${owner.user.id}`),
      other.client.delete(`${base}/${other.user.id}`),
    ]);
    const owners = (await env.api.get(`${base}?limit=100`)).body.items.filter((m: { role: string }) => m.role === "owner");
    expect(owners).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).length).toBeGreaterThanOrEqual(1);
  });

  it("a role outside the set is 400; an unknown member is 404", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const base = `/organizations/${organization.id}/members`;
    expectProblem(await owner.client.patch(`${base}/${member.user.id}`, { role: "emperor" }), 400, "invalid_request");
    for (const body of [{}, { role: "" }, { role: "Owner!" }, { role: 3 }]) expectProblem(await owner.client.patch(`${base}/${member.user.id}`, body), 400, "invalid_request");
    expectProblem(await owner.client.patch(`${base}/${unknownId()}`, { role: "admin" }), 404, "resource_not_found");
    expectProblem(await owner.client.delete(`${base}/${unknownId()}`), 404, "resource_not_found");
  });
});

async function storedOrganization(organizationId: string) {
  const [row] = await getDb().select().from(organizations).where(eq(organizations.id, organizationId));
  return row ?? null;
}

describe("PATCH /_svc/organizations/{id} (settings)", () => {
  it("changes name, slug and logo, answers the organization with the caller's role, and audits the fields", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const res = await owner.client.patch(`/organizations/${organization.id}`, { name: "Acme Holdings", slug: "acme-holdings", logoUrl: "https://cdn.example.com/acme.png" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: organization.id,
      name: "Acme Holdings",
      slug: "acme-holdings",
      logoUrl: "https://cdn.example.com/acme.png",
      role: "owner",
      roleName: "Owner",
      permissions: ["org:members:manage", "org:invitations:manage", "org:settings:manage"],
    });
    expect((await owner.client.get(`/organizations/${organization.id}`)).body).toEqual(res.body);
    // null removes the logo; a field left out stays as it was.
    const cleared = await owner.client.patch(`/organizations/${organization.id}`, { logoUrl: null });
    expect(cleared.body).toMatchObject({ name: "Acme Holdings", slug: "acme-holdings", logoUrl: null });
    const updates = (await organizationEvents(env.environmentId, organization.id)).filter((e) => e.type === "organization.updated");
    expect(updates).toEqual([
      { type: "organization.updated", actorId: owner.user.id, data: { fields: ["name", "slug", "logoUrl"] } },
      { type: "organization.updated", actorId: owner.user.id, data: { fields: ["logoUrl"] } },
    ]);
  });

  it("answers 409 identifier_exists for a slug another organization of the environment has, and changes nothing", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env, "First");
    await organizationWithOwner(env, "Taken Name");
    const res = await owner.client.patch(`/organizations/${organization.id}`, { name: "Renamed", slug: "taken-name" });
    expectProblem(res, 409, "identifier_exists");
    expect(res.body.detail).toMatch(/slug/);
    expect(await storedOrganization(organization.id)).toMatchObject({ name: "First", slug: "first" });
    // Slugs are unique per environment only: another environment's is free to reuse.
    const elsewhere = await organizationWithOwner(await newEnvironment(), "Elsewhere");
    expect((await elsewhere.owner.client.patch(`/organizations/${elsewhere.organization.id}`, { slug: "taken-name" })).status).toBe(200);
  });

  it("refuses hostile input with 400 problem+json naming the field, and changes nothing", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const path = `/organizations/${organization.id}`;
    const cases: [unknown, string][] = [
      [{}, "body"],
      [{ name: "" }, "name"],
      [{ name: "   " }, "name"],
      [{ name: 5 }, "name"],
      [{ name: null }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ slug: "Not A Slug" }, "slug"],
      [{ slug: "-leading" }, "slug"],
      [{ slug: "double--hyphen" }, "slug"],
      [{ slug: "x".repeat(61) }, "slug"],
      [{ slug: null }, "slug"],
      [{ logoUrl: "javascript:alert(1)" }, "logoUrl"],
      [{ logoUrl: "data:image/png;base64,AAAA" }, "logoUrl"],
      [{ logoUrl: "not a url" }, "logoUrl"],
      [{ logoUrl: `https://example.com/${"a".repeat(2100)}` }, "logoUrl"],
      [{ publicMetadata: { plan: "pro" } }, "body"],
      [{ privateMetadata: {} }, "body"],
      [{ name: "Ok", role: "owner" }, "body"],
      [null, "body"],
      [[], "body"],
      ["rename", "body"],
    ];
    for (const [body, field] of cases) {
      const res = await owner.client.patch(path, body);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), JSON.stringify(body)).toContain(field);
    }
    expectProblem(await owner.client.patch("/organizations/not-a-uuid", { name: "X" }), 400, "invalid_request");
    const huge = await owner.client.patch(path, { name: "x".repeat(70_000) });
    expectProblem(huge, 413, "payload_too_large");
    const malformed = await call("PATCH", `/_svc${path}`, {
      headers: { "x-api-key": env.publishableKey, authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
      rawBody: '{"name": ',
    });
    expectProblem(malformed, 400, "invalid_request");
    expect(await storedOrganization(organization.id)).toMatchObject({ name: "Acme Inc", slug: "acme-inc", logoUrl: null });
  });

  it("answers 404 to a non-member, a member of another organization and another environment's user; 403 to a member without org:settings:manage", async () => {
    const env = await newEnvironment();
    const { organization } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const stranger = await signedInUser(env);
    const otherOrgOwner = (await organizationWithOwner(env, "Other")).owner;
    const foreigner = await signedInUser(await newEnvironment());
    for (const outsider of [stranger, otherOrgOwner, foreigner]) {
      const res = await outsider.client.patch(`/organizations/${organization.id}`, { name: "Hijacked" });
      expectProblem(res, 404, "resource_not_found");
      expect(res.text).not.toContain("Acme");
    }
    expectProblem(await stranger.client.patch(`/organizations/${unknownId()}`, { name: "X" }), 404, "resource_not_found");
    const refused = await member.client.patch(`/organizations/${organization.id}`, { name: "Hijacked" });
    expectProblem(refused, 403, "forbidden");
    expect(refused.body.detail).toContain("org:settings:manage");
    expect((await storedOrganization(organization.id))?.name).toBe("Acme Inc");
  });

  it("needs a signed-in user", async () => {
    const env = await newEnvironment();
    const { organization } = await organizationWithOwner(env);
    const { clientApi } = await import("../helpers/client");
    expectProblem(await clientApi(env.publishableKey).patch(`/organizations/${organization.id}`, { name: "X" }), 401, "unauthorized");
  });
});

describe("DELETE /_svc/organizations/{id}", () => {
  it("deletes the organization with its memberships and invitations, audited; its members then get 404", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const invited = await env.api.post(`/organizations/${organization.id}/invitations`, { email: "new@example.com", role: "member" });
    expect(invited.status, invited.text).toBe(201);
    const res = await owner.client.delete(`/organizations/${organization.id}`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");
    expect(await storedOrganization(organization.id)).toBeNull();
    expect(await getDb().select().from(organizationMemberships).where(eq(organizationMemberships.organizationId, organization.id))).toEqual([]);
    expect(await getDb().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, organization.id))).toEqual([]);
    const deleted = (await organizationEvents(env.environmentId, organization.id)).find((e) => e.type === "organization.deleted");
    expect(deleted).toEqual({ type: "organization.deleted", actorId: owner.user.id, data: { slug: "acme-inc", members: 2 } });
    expectProblem(await member.client.get(`/organizations/${organization.id}`), 404, "resource_not_found");
    expect((await member.client.get("/organizations")).body.items).toEqual([]);
    expectProblem(await owner.client.delete(`/organizations/${organization.id}`), 404, "resource_not_found");
  });

  it("drops org_* claims at the next refresh of every session that had it active", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    for (const { client } of [owner, member]) {
      const active = await client.post("/organizations/active", { organizationId: organization.id });
      expect(active.status, active.text).toBe(200);
      expect(await refreshedClaims(client)).toMatchObject({ org_id: organization.id });
    }
    expect((await owner.client.delete(`/organizations/${organization.id}`)).status).toBe(204);
    for (const { client } of [owner, member]) {
      const claims = await refreshedClaims(client);
      expect(claims).not.toHaveProperty("org_id");
      expect(claims).not.toHaveProperty("org_role");
      expect(claims).not.toHaveProperty("org_permissions");
      expect((await client.get("/client")).body.activeOrganizationId).toBeNull();
    }
  });

  it("needs a recent sign-in: a session that proved nothing lately gets 403 reverification_required and deletes nothing", async () => {
    const env = await newEnvironment();
    const { owner, organization } = await organizationWithOwner(env);
    await ageSignIn(owner.sessionId);
    expectProblem(await owner.client.delete(`/organizations/${organization.id}`), 403, "reverification_required");
    expect(await storedOrganization(organization.id)).not.toBeNull();
  });

  it("answers 404 to outsiders, 403 to a member without org:settings:manage, 400 to a malformed id, 401 signed out; deletes nothing", async () => {
    const env = await newEnvironment();
    const { organization } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const outsiders = [await signedInUser(env), (await organizationWithOwner(env, "Other")).owner, await signedInUser(await newEnvironment())];
    for (const outsider of outsiders) expectProblem(await outsider.client.delete(`/organizations/${organization.id}`), 404, "resource_not_found");
    expectProblem(await member.client.delete(`/organizations/${organization.id}`), 403, "forbidden");
    expectProblem(await member.client.delete(`/organizations/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await member.client.delete("/organizations/1%20or%201=1"), 400, "invalid_request");
    const { clientApi } = await import("../helpers/client");
    expectProblem(await clientApi(env.publishableKey).delete(`/organizations/${organization.id}`), 401, "unauthorized");
    expect(await storedOrganization(organization.id)).not.toBeNull();
  });
});

async function refreshedClaims(client: ClientApi) {
  const res = await client.post("/auth/token");
  expect(res.status, res.text).toBe(200);
  return decodeJwt(res.body.accessToken as string);
}
