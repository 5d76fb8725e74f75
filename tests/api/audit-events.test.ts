import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { listAuditEventsEndpoint } from "@/lib/audit/server-endpoints";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { findEnvironment } from "@/lib/environments/context";
import type { OperatorRole } from "@/lib/operation/caller";
import { call, expectProblem, serverApi } from "../helpers/api";
import { createUser, newEnvironment, openSession, revokedSecretKey, uniqueEmail, unknownId } from "../helpers/fixtures";
import { memberWithRole, organizationWithOwner } from "../helpers/organizations";

interface AuditEvent {
  id: string;
  type: string;
  actorType: string;
  actorId: string | null;
  onBehalfOf?: { type: string; id: string };
  userId?: string;
  organizationId?: string;
  requestId: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}
interface Page {
  items: AuditEvent[];
  nextCursor: string | null;
  hasMore: boolean;
}

type Env = Awaited<ReturnType<typeof newEnvironment>>;

async function auditPage(env: Env, query = ""): Promise<Page> {
  const res = await env.api.get<Page>(`/audit-events${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Follows nextCursor to the end; every page's ids, in order. */
async function walk(env: Env, query: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await auditPage(env, `?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.hasMore).toBe(page.nextCursor !== null);
    pages.push(page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

/** Events written directly, at chosen instants (the API stamps "now"). */
async function insertEvents(environmentId: string, rows: { type: string; createdAt: string; subjectId?: string }[]) {
  return getDb()
    .insert(events)
    .values(rows.map((row) => ({ environmentId, type: row.type, actorType: "system" as const, actorId: null, subjectId: row.subjectId ?? null, requestId: "job_test", createdAt: new Date(row.createdAt) })))
    .returning({ id: events.id });
}

describe("GET /api/server/v1/audit-events", () => {
  it("lists the environment's events newest first, in the Page shape, with the subject mapped to userId / organizationId", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    expect((await env.api.post(`/users/${user.id}/ban`)).status).toBe(200);
    const page = await auditPage(env);
    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeNull();
    const [banned, created] = page.items;
    expect(banned).toMatchObject({ type: "user.banned", actorType: "secret_key", userId: user.id, data: { revokedSessions: 0 } });
    expect(created).toMatchObject({ type: "user.created", actorType: "secret_key", userId: user.id, data: {} });
    expect(banned?.actorId).toBe(created?.actorId);
    expect(banned?.requestId).toMatch(/^req_/);
    expect(Object.keys(banned ?? {}).sort()).toEqual(["actorId", "actorType", "createdAt", "data", "id", "requestId", "type", "userId"]);
    expect(new Date(banned?.createdAt ?? "").toISOString()).toBe(banned?.createdAt);

    const { organization, owner } = await organizationWithOwner(env);
    const member = await memberWithRole(env, organization.id, "member");
    const orgEvents = await auditPage(env, `?organizationId=${organization.id}`);
    expect(orgEvents.items.map((item) => item.type)).toEqual(["organization.member_added", "organization.member_added", "organization.created"]);
    expect(orgEvents.items[0]).toMatchObject({ organizationId: organization.id, data: { userId: member.user.id, role: "member" } });
    expect(orgEvents.items[0]?.userId).toBeUndefined();
    // The creator joins as owner, in the creation's own events.
    expect(orgEvents.items[1]).toMatchObject({ organizationId: organization.id, data: { userId: owner.user.id, role: "owner" } });
    expect(orgEvents.items[2]).toMatchObject({ actorType: "user", actorId: owner.user.id, organizationId: organization.id });
  });

  it("filters by type (one type or a namespace), userId, actor (or the impersonator acting as the user) and time window", async () => {
    const env = await newEnvironment();
    const [a, b] = [await createUser(env.api, { email: uniqueEmail() }), await createUser(env.api, { email: uniqueEmail() })];
    await openSession(env.environmentId, a.id);
    expect((await env.api.post(`/users/${b.id}/ban`)).status).toBe(200);

    expect((await auditPage(env, "?type=user.banned")).items.map((i) => [i.type, i.userId])).toEqual([["user.banned", b.id]]);
    expect((await auditPage(env, "?type=session.*")).items.map((i) => [i.type, i.userId])).toEqual([["session.created", a.id]]);
    expect((await auditPage(env, "?type=user.*")).items.map((i) => i.type)).toEqual(["user.banned", "user.created", "user.created"]);
    expect((await auditPage(env, `?userId=${a.id}`)).items.map((i) => i.type)).toEqual(["session.created", "user.created"]);
    expect((await auditPage(env, `?userId=${b.id}&type=user.created`)).items.map((i) => i.userId)).toEqual([b.id]);
    // The user opened their session themselves: the user is its actor.
    expect((await auditPage(env, `?actor=${a.id}`)).items.map((i) => i.type)).toEqual(["session.created"]);
    const keyId = (await auditPage(env, "?type=user.banned")).items[0]?.actorId ?? "";
    expect((await auditPage(env, `?actor=${keyId}`)).items.map((i) => i.type)).toEqual(["user.banned", "user.created", "user.created"]);
    expect((await auditPage(env, `?actor=${unknownId()}`)).items).toEqual([]);

    // An impersonation: the user acts, the operator is on whose behalf.
    await getDb().insert(events).values({ environmentId: env.environmentId, type: "user.updated", actorType: "user", actorId: a.id, onBehalfOfType: "operator", onBehalfOfId: "op_42", subjectId: a.id, data: { fields: ["firstName"] }, requestId: "req_x" });
    const impersonated = await auditPage(env, "?actor=op_42");
    expect(impersonated.items).toHaveLength(1);
    expect(impersonated.items[0]).toMatchObject({ type: "user.updated", actorType: "user", actorId: a.id, onBehalfOf: { type: "operator", id: "op_42" }, userId: a.id });

    // after is inclusive, before exclusive: adjacent windows never share an event.
    await insertEvents(env.environmentId, [
      { type: "environment.settings_updated", createdAt: "2020-01-01T23:59:59.999Z" },
      { type: "environment.settings_updated", createdAt: "2020-01-02T00:00:00.000Z" },
      { type: "environment.settings_updated", createdAt: "2020-01-02T12:00:00.000Z" },
      { type: "environment.settings_updated", createdAt: "2020-01-03T00:00:00.000Z" },
    ]);
    const day = await auditPage(env, "?after=2020-01-02T00:00:00Z&before=2020-01-03T00:00:00Z");
    expect(day.items.map((i) => i.createdAt)).toEqual(["2020-01-02T12:00:00.000Z", "2020-01-02T00:00:00.000Z"]);
    const offset = await auditPage(env, `?after=${encodeURIComponent("2020-01-02T01:00:00+01:00")}&before=2020-01-02T00:00:00.001Z`);
    expect(offset.items.map((i) => i.createdAt)).toEqual(["2020-01-02T00:00:00.000Z"]);
    expect((await auditPage(env, "?before=2020-01-02T00:00:00Z")).items.map((i) => i.createdAt)).toEqual(["2020-01-01T23:59:59.999Z"]);
  });

  it("pages by keyset on the write order: pages neither overlap nor skip, under every filter, even when timestamps tie", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    // 23 events sharing one timestamp, then 4 of the user's: a created_at keyset would tie.
    await insertEvents(env.environmentId, Array.from({ length: 23 }, () => ({ type: "signing_key.rotated", createdAt: "2021-06-01T00:00:00Z" })));
    await insertEvents(env.environmentId, Array.from({ length: 4 }, () => ({ type: "user.updated", createdAt: "2021-06-01T00:00:00Z", subjectId: user.id })));
    // …plus environment.created and user.created: 29.
    const all = (await auditPage(env, "?limit=100")).items.map((i) => i.id);
    expect(all).toHaveLength(29);
    const pages = await walk(env, "", 5);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 5, 4]);
    expect(pages.flat()).toEqual(all);

    const userPages = await walk(env, `&userId=${user.id}`, 2);
    expect(userPages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(new Set(userPages.flat()).size).toBe(5);
    const typed = await walk(env, "&type=signing_key.rotated", 10);
    expect(typed.map((p) => p.length)).toEqual([10, 10, 3]);
    // A page that exactly fills: the last full page says no more.
    expect((await walk(env, "&type=user.updated", 4)).map((p) => p.length)).toEqual([4]);

    // An event written after the first page was read appears on no later page (newest first).
    const first = await auditPage(env, "?limit=5");
    await createUser(env.api, { email: uniqueEmail() });
    const second = await auditPage(env, `?limit=5&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.id)).toEqual(all.slice(5, 10));
  });

  it("never shows another environment's events, nor accepts its event as a cursor", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    const theirs = await createUser(other.api, { email: uniqueEmail() });
    await createUser(other.api, { email: uniqueEmail() });
    await createUser(env.api, { email: uniqueEmail() });
    expect((await auditPage(env)).items.map((i) => i.type)).toEqual(["user.created", "environment.created"]);
    expect((await auditPage(env, `?userId=${theirs.id}`)).items).toEqual([]);
    const theirCursor = (await auditPage(other, "?limit=1")).nextCursor;
    expect(theirCursor).toBeTruthy();
    const res = await env.api.get(`/audit-events?cursor=${theirCursor}`);
    expectProblem(res, 400, "invalid_request");
    expect(res.body.detail).toContain("cursor");
    expectProblem(await env.api.get(`/audit-events?cursor=${unknownId()}`), 400, "invalid_request");
  });

  it("answers bad input with 400 invalid_request naming the parameter, never a 500", async () => {
    const env = await newEnvironment();
    const cases: [string, string][] = [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?limit=-1", "limit"],
      ["?cursor=not-a-uuid", "cursor"],
      ["?userId=42", "userId"],
      ["?organizationId=acme", "organizationId"],
      ["?after=yesterday", "after"],
      ["?before=2024-13-01T00:00:00Z", "before"],
      ["?after=0000-06-01T00:00:00Z", "after"],
      ["?after=2024-02-01T00:00:00Z&before=2024-01-01T00:00:00Z", "before"],
      ["?after=2024-01-01T00:00:00Z&before=2024-01-01T00:00:00Z", "before"],
      ["?type=user.exploded", "type"],
      ["?type=nothing.*", "type"],
      ["?type=%25", "type"],
      ["?actor=", "actor"],
      [`?actor=${"x".repeat(129)}`, "actor"],
      ["?actor=%00", "query"],
    ];
    for (const [query, field] of cases) {
      const res = await env.api.get(`/audit-events${query}`);
      expectProblem(res, 400, "invalid_request");
      expect(String(res.body.detail), query).toContain(field === "query" ? "" : `${field}:`);
    }
    expect((await env.api.get("/audit-events?unknown=1&limit=100")).status).toBe(200);
    expect((await env.api.post("/audit-events", {})).status).toBe(405);
  });

  it("is 401 without a secret key, with a revoked one or with a publishable key", async () => {
    const env = await newEnvironment();
    expectProblem(await call("GET", "/api/server/v1/audit-events"), 401, "unauthorized");
    expectProblem(await serverApi(await revokedSecretKey(env.environmentId)).get("/audit-events"), 401, "unauthorized");
    expectProblem(await serverApi(env.publishableKey).get("/audit-events"), 401, "unauthorized");
  });

  it("every operator role reads it (a viewer too), and sees what the secret key sees: payloads hold no secrets", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail(), password: "correct horse battery staple" });
    expect((await env.api.post("/impersonation-tokens", { userId: user.id, actorId: "support-7" })).status).toBeLessThan(300);
    const environment = await findEnvironment(getDb(), env.environmentId);
    if (!environment) throw new Error("no environment");
    const context = { requestId: "req_audit_test", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
    const viaKey = await auditPage(env);
    for (const role of ["viewer", "admin", "owner"] as OperatorRole[]) {
      const page = await runOperatorOperation(listAuditEventsEndpoint, { id: `op_${role}`, email: `${role}@ops.example.com`, role, hasSecondFactor: true, sessionProvedSecondFactor: true }, environment, { query: {} }, context);
      expect(page).toEqual(viaKey);
    }
    const minted = viaKey.items.find((item) => item.type === "user.impersonation_token_created");
    expect(minted?.data).toMatchObject({ actorId: "support-7", tokenId: expect.any(String) });
    // No token, password hash or address anywhere in the log.
    const text = JSON.stringify(viaKey);
    expect(text).not.toContain("$argon2");
    expect(text).not.toContain(user.email ?? "@");
    expect(text).not.toMatch(/"token"\s*:/);
  });
});
