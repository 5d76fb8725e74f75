import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { EXPORT_BATCH_EVENTS } from "@/lib/audit/list-audit-events";
import { expectProblem } from "../helpers/api";
import { createUser, newEnvironment, uniqueEmail, unknownId } from "../helpers/fixtures";

type Env = Awaited<ReturnType<typeof newEnvironment>>;
interface AuditEvent {
  id: string;
  type: string;
  userId?: string;
  createdAt: string;
}

/** The export's lines, parsed; fails unless it is 200 NDJSON. */
async function exported(env: Env, query = ""): Promise<AuditEvent[]> {
  const res = await env.api.get<string>(`/audit-events/export${query}`);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson");
  expect(res.headers.get("cache-control")).toBe("no-store");
  if (res.text === "") return [];
  expect(res.text.endsWith("\n")).toBe(true);
  return res.text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** Every page of the list, concatenated. */
async function allPages(env: Env, query = ""): Promise<AuditEvent[]> {
  const items: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; text: string; body: { items: AuditEvent[]; nextCursor: string | null } } = await env.api.get(`/audit-events?limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

async function insertEvents(environmentId: string, count: number, type: "user.updated" | "signing_key.rotated", createdAt: Date) {
  const rows = Array.from({ length: count }, () => ({ environmentId, type, actorType: "system" as const, actorId: null, requestId: "job_test", createdAt, data: {} }));
  for (let from = 0; from < rows.length; from += 1000) await getDb().insert(events).values(rows.slice(from, from + 1000));
}

describe("GET /api/server/v1/audit-events/export", () => {
  it("streams every event as NDJSON, newest first: the concatenation of the list's pages, across several batches", async () => {
    const env = await newEnvironment();
    await createUser(env.api, { email: uniqueEmail() });
    await insertEvents(env.environmentId, EXPORT_BATCH_EVENTS * 2 + 17, "signing_key.rotated", new Date("2022-03-01T00:00:00Z"));
    await createUser(env.api, { email: uniqueEmail() });
    const lines = await exported(env);
    expect(lines.length).toBeGreaterThan(EXPORT_BATCH_EVENTS * 2 + 17);
    expect(lines).toEqual(await allPages(env));
    expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
  });

  it("applies the list's filters, and resumes after a cursor", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    expect((await env.api.post(`/users/${user.id}/ban`)).status).toBe(200);
    await insertEvents(env.environmentId, 3, "signing_key.rotated", new Date("2020-01-02T00:00:00Z"));

    expect((await exported(env, "?type=user.banned")).map((e) => [e.type, e.userId])).toEqual([["user.banned", user.id]]);
    expect((await exported(env, "?type=user.*")).map((e) => e.type)).toEqual(["user.banned", "user.created"]);
    expect(await exported(env, `?userId=${user.id}`)).toEqual(await allPages(env, `&userId=${user.id}`));
    const window = "?after=2020-01-01T00:00:00Z&before=2020-01-03T00:00:00Z";
    const inWindow = await exported(env, window);
    expect(inWindow.map((e) => e.type)).toEqual(["signing_key.rotated", "signing_key.rotated", "signing_key.rotated"]);
    expect(await exported(env, `?actor=${unknownId()}`)).toEqual([]);
    // Resuming after the first line gives the rest.
    expect(await exported(env, `${window}&cursor=${inWindow[0]?.id}`)).toEqual(inWindow.slice(1));
  });

  it("never shows another environment's events, nor resumes from one's cursor", async () => {
    const [mine, theirs] = [await newEnvironment(), await newEnvironment()];
    await createUser(theirs.api, { email: uniqueEmail() });
    const theirIds = (await exported(theirs)).map((e) => e.id);
    expect(theirIds.length).toBeGreaterThan(0);
    const myIds = (await exported(mine)).map((e) => e.id);
    expect(myIds.filter((id) => theirIds.includes(id))).toEqual([]);
    expectProblem(await mine.api.get(`/audit-events/export?cursor=${theirIds[0]}`), 400, "invalid_request");
  });

  it("answers a bad filter with a 400 problem before any line", async () => {
    const env = await newEnvironment();
    expectProblem(await env.api.get("/audit-events/export?type=user.nope"), 400, "invalid_request");
    expectProblem(await env.api.get("/audit-events/export?after=yesterday"), 400, "invalid_request");
    expectProblem(await env.api.get("/audit-events/export?after=2020-01-02T00:00:00Z&before=2020-01-01T00:00:00Z"), 400, "invalid_request");
    expectProblem(await env.api.get("/audit-events/export?cursor=nope"), 400, "invalid_request");
  });
});
