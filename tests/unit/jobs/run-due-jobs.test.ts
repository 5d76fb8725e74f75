import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, openDatabase, type DatabaseHandle } from "@/db/client";
import { jobs } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { claimDueJobs, runDueJobs, scheduleRecurringJobs, type JobRow } from "@/lib/jobs/run-due-jobs";

/** Jobs whose data request does not exist: claimable like any other, and harmless when run. */
async function enqueueExports(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await enqueueJob(getDb(), { kind: "data_export", payload: { dataRequestId: randomUUID() } })).id);
  return ids;
}

async function job(id: string): Promise<JobRow> {
  const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`no job ${id}`);
  return row;
}

const onPostgres = Boolean(process.env.DATABASE_URL);
const others: DatabaseHandle[] = [];

/** A second connection pool to the same database: another server process, as far as Postgres can tell. */
function otherProcess(): DatabaseHandle {
  const handle = openDatabase({ url: process.env.DATABASE_URL, poolSize: 2 });
  others.push(handle);
  return handle;
}

afterAll(async () => {
  for (const handle of others) await handle.close();
});

beforeEach(async () => {
  await getDb().delete(jobs);
});

describe("claiming jobs", () => {
  it.skipIf(!onPostgres)("a claim in progress holds its jobs: a concurrent claimer skips them instead of waiting or sharing", async () => {
    const enqueued = await enqueueExports(5);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimedFirst: JobRow[] = [];
    let signalClaimed = () => {};
    const claimed = new Promise<void>((resolve) => (signalClaimed = resolve));
    // The first claimer's transaction stays open, its row locks held, while the second claims.
    const first = getDb().transaction(async (tx) => {
      claimedFirst = await claimDueJobs(tx, { limit: 3, claimant: "first" });
      signalClaimed();
      await held;
    });
    await claimed;
    const claimedSecond = await claimDueJobs(otherProcess().db, { limit: 10, claimant: "second" });
    release();
    await first;

    const firstIds = claimedFirst.map((row) => row.id);
    const secondIds = claimedSecond.map((row) => row.id);
    expect(firstIds).toHaveLength(3);
    expect(secondIds).toHaveLength(2);
    expect([...firstIds, ...secondIds].sort()).toEqual([...enqueued].sort());
  });

  it("two runners claiming in a loop at once never get the same job, and between them get every one", async () => {
    const enqueued = await enqueueExports(40);
    const second = onPostgres ? otherProcess().db : getDb();
    const drain = async (db: typeof second, claimant: string) => {
      const mine: string[] = [];
      for (;;) {
        const batch = await claimDueJobs(db, { limit: 3, claimant });
        if (batch.length === 0) return mine;
        mine.push(...batch.map((row) => row.id));
      }
    };
    const [a, b, c] = await Promise.all([drain(getDb(), "a"), drain(second, "b"), drain(second, "c")]);
    const all = [...(a ?? []), ...(b ?? []), ...(c ?? [])];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...enqueued].sort());
    const rows = await getDb().select().from(jobs);
    expect(rows.every((row) => row.attempts === 1 && row.lockedUntil !== null)).toBe(true);
  });

  it("a job whose runner died is claimed again once its lease runs out; one that died on its last attempt is given up", async () => {
    const [orphan, lastTry] = await enqueueExports(2);
    if (!orphan || !lastTry) throw new Error("enqueue failed");
    await getDb().update(jobs).set({ maxAttempts: 1 }).where(eq(jobs.id, lastTry));
    expect(await claimDueJobs(getDb(), { limit: 10, claimant: "died" })).toHaveLength(2);
    expect((await runDueJobs(getDb())).claimed).toBe(0);

    await getDb().update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` });
    expect(await runDueJobs(getDb())).toEqual({ claimed: 2, succeeded: 1, retried: 0, failed: 1 });
    expect(await job(orphan)).toMatchObject({ status: "succeeded", attempts: 2, lockedUntil: null });
    expect(await job(lastTry)).toMatchObject({ status: "failed", attempts: 2, lastError: "the last attempt never finished" });
  });

  it("a payload that does not fit its kind is given up at once, not retried", async () => {
    const [id] = await enqueueExports(1);
    if (!id) throw new Error("enqueue failed");
    await getDb().update(jobs).set({ payload: { dataRequestId: "not-a-uuid" } }).where(eq(jobs.id, id));
    expect(await runDueJobs(getDb())).toMatchObject({ claimed: 1, failed: 1 });
    expect(await job(id)).toMatchObject({ status: "failed", attempts: 1 });
  });
});

describe("recurring jobs", () => {
  it("the clean-up is scheduled once however many runners start, and reschedules itself an hour after it ran", async () => {
    await Promise.all([scheduleRecurringJobs(getDb()), scheduleRecurringJobs(getDb()), scheduleRecurringJobs(getDb())]);
    const pending = () => getDb().select().from(jobs).where(and(eq(jobs.kind, "clean_up"), isNull(jobs.finishedAt)));
    const [first, ...more] = await pending();
    expect(more).toEqual([]);
    expect(first?.singletonKey).toBe("clean_up");

    expect(await runDueJobs(getDb())).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await job(first?.id ?? "")).toMatchObject({ status: "succeeded" });
    const [next, ...extra] = await pending();
    expect(extra).toEqual([]);
    const inSeconds = ((next?.runAt.getTime() ?? 0) - Date.now()) / 1000;
    expect(inSeconds).toBeGreaterThan(3500);
    expect(inSeconds).toBeLessThan(3700);
    await scheduleRecurringJobs(getDb());
    expect(await pending()).toHaveLength(1);
    expect((await runDueJobs(getDb())).claimed).toBe(0);
  });
});
