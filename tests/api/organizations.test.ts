import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { expectProblem, type ApiResponse } from "../helpers/api";
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
