import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { deleteExpiredAuditEvents } from "@/lib/audit/retention";
import { cleanUp } from "@/lib/jobs/clean-up";
import { expectProblem } from "../../helpers/api";
import { newEnvironment } from "../../helpers/fixtures";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date();
const ago = (days: number, extraMs = 0) => new Date(NOW.getTime() - days * DAY - extraMs);

async function insertAt(environmentId: string, createdAt: Date[]): Promise<string[]> {
  const rows = createdAt.map((at) => ({ environmentId, type: "signing_key.rotated", actorType: "system" as const, requestId: "job_test", createdAt: at, data: {} }));
  return (await getDb().insert(events).values(rows).returning({ id: events.id })).map((row) => row.id);
}

async function surviving(ids: string[]): Promise<string[]> {
  return (await getDb().select({ id: events.id }).from(events).where(inArray(events.id, ids))).map((row) => row.id).sort();
}

describe("audit log retention (auditLog.retentionDays, the hourly clean-up)", () => {
  it("deletes each environment's events older than its retention and keeps the newer ones and other environments'", async () => {
    const [short, long] = [await newEnvironment(), await newEnvironment()];
    expect((await short.api.patch("/environment", { auditLog: { retentionDays: 30 } })).status).toBe(200);
    const [expired, kept] = [await insertAt(short.environmentId, [ago(30, 3600_000), ago(400)]), await insertAt(short.environmentId, [ago(30, -3600_000), ago(1)])];
    // The default (365 days) applies where nothing was set.
    const [longExpired, longKept] = [await insertAt(long.environmentId, [ago(366)]), await insertAt(long.environmentId, [ago(300), ago(31)])];

    const deleted = await deleteExpiredAuditEvents(getDb(), NOW);
    expect(deleted).toBeGreaterThanOrEqual(3);
    expect(await surviving([...expired, ...kept])).toEqual([...kept].sort());
    expect(await surviving([...longExpired, ...longKept])).toEqual([...longKept].sort());
    // The environment's own recent events (its creation, the settings change) stay.
    const recent = await getDb().select({ id: events.id }).from(events).where(and(eq(events.environmentId, short.environmentId), eq(events.type, "environment.settings_updated")));
    expect(recent).toHaveLength(1);
  });

  it("deletes in bounded batches until none is left, as a step of the periodic clean-up job", async () => {
    const env = await newEnvironment();
    expect((await env.api.patch("/environment", { auditLog: { retentionDays: 1 } })).status).toBe(200);
    const old = Array.from({ length: 5_000 + 123 }, (_, i) => ago(2, i));
    for (let from = 0; from < old.length; from += 2_000) await insertAt(env.environmentId, old.slice(from, from + 2_000));
    const counts = await cleanUp(getDb(), NOW);
    expect(counts.auditEvents).toBeGreaterThanOrEqual(old.length);
    const left = await getDb().select({ id: events.id }).from(events).where(eq(events.environmentId, env.environmentId));
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(5);
  });

  it("validates the setting: 1 to 3650 days, 365 by default, null resets it", async () => {
    const env = await newEnvironment();
    expect((await env.api.get("/environment")).body.auditLog).toEqual({ retentionDays: 365 });
    for (const retentionDays of [0, 3651, 1.5, "30", -1]) {
      expectProblem(await env.api.patch("/environment", { auditLog: { retentionDays } }), 400, "invalid_request");
    }
    expectProblem(await env.api.patch("/environment", { auditLog: { keepForever: true } }), 400, "invalid_request");
    const set = await env.api.patch("/environment", { auditLog: { retentionDays: 3650 } });
    expect(set.status, set.text).toBe(200);
    const reset = await env.api.patch("/environment", { auditLog: { retentionDays: null } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.auditLog).toEqual({ retentionDays: 365 });
  });
});
