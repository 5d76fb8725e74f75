import os from "node:os";
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { jobs } from "@/db/schema";
import { jobActor } from "../audit/record-event";
import { randomToken } from "../crypto/tokens";
import { logUnexpectedError } from "../log";
import { InvalidJobPayload, jobHandlers } from "./job-handlers";
import { JOB_KINDS, jobKinds, type JobKind } from "./job-kinds";

export type JobRow = typeof jobs.$inferSelect;

/** How long a claim holds a job; a runner that dies leaves it to others once this runs out. */
export const LEASE_SECONDS = 5 * 60;

/** Wait before retry n: 30 s, 1 min, 2 min, … doubling up to an hour. */
export function backoffSeconds(attempt: number): number {
  return Math.min(60 * 60, 30 * 2 ** Math.max(0, attempt - 1));
}

/** Names this runner's claims in `claimed_by`, for whoever looks at a stuck job. */
export function newClaimant(): string {
  return `${os.hostname()}:${process.pid}:${randomToken(4)}`;
}

/**
 * Claims up to `limit` due jobs in one statement and returns them, attempts already
 * counted. `FOR UPDATE SKIP LOCKED` makes concurrent claimers (other processes,
 * other hosts) pass over the rows one of them is claiming instead of waiting for or
 * sharing them, so a job goes to one claimer. The candidates are chosen in a CTE,
 * which Postgres evaluates once; a `LIMIT` subquery inside `WHERE id IN (…)` may be
 * re-run by the planner and lock more rows than asked for. Only kinds this process
 * knows are claimed, so a rolling deploy never hands a new kind to an old runner.
 */
export async function claimDueJobs(db: Database, options: { limit: number; claimant: string }): Promise<JobRow[]> {
  const due = db.$with("due").as(
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.finishedAt),
          lte(jobs.runAt, sql`now()`),
          or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, sql`now()`)),
          inArray(jobs.kind, JOB_KINDS),
        ),
      )
      .orderBy(jobs.runAt, jobs.id)
      .limit(options.limit)
      .for("update", { skipLocked: true }),
  );
  return db
    .with(due)
    .update(jobs)
    .set({
      attempts: sql`${jobs.attempts} + 1`,
      claimedBy: options.claimant,
      lockedUntil: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
    })
    .from(due)
    .where(eq(jobs.id, due.id))
    .returning();
}

export interface JobRunSummary {
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
}

/**
 * Claims the due jobs and runs them one after another. The server's runner calls
 * this in a loop (job-runner.ts); tests call it to run queued work deterministically.
 */
export async function runDueJobs(db: Database, options: { limit?: number; claimant?: string } = {}): Promise<JobRunSummary> {
  const claimed = await claimDueJobs(db, { limit: options.limit ?? 10, claimant: options.claimant ?? newClaimant() });
  const summary: JobRunSummary = { claimed: claimed.length, succeeded: 0, retried: 0, failed: 0 };
  for (const job of claimed) summary[await runJob(db, job)] += 1;
  return summary;
}

/** The row as this claim left it: a runner whose lease ran out and was re-claimed must not settle the job. */
function ownClaim(job: JobRow) {
  return and(eq(jobs.id, job.id), eq(jobs.claimedBy, job.claimedBy ?? ""), eq(jobs.attempts, job.attempts));
}

async function runJob(db: Database, job: JobRow): Promise<"succeeded" | "retried" | "failed"> {
  const handler = jobHandlers[job.kind as JobKind];
  // Counted at claim time: more claims than attempts allowed means the last one died mid-run.
  if (job.attempts > job.maxAttempts) return giveUp(db, job, "the last attempt never finished");
  try {
    await handler.run(db, job.payload, { jobId: job.id, actor: jobActor(job.id) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logUnexpectedError(`job_${job.id}`, error);
    if (error instanceof InvalidJobPayload || job.attempts >= job.maxAttempts) return giveUp(db, job, message);
    await db
      .update(jobs)
      .set({
        lastError: message.slice(0, 2000),
        lockedUntil: null,
        claimedBy: null,
        runAt: sql`now() + make_interval(secs => ${backoffSeconds(job.attempts)})`,
      })
      .where(ownClaim(job));
    return "retried";
  }
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(jobs)
      .set({ status: "succeeded", finishedAt: sql`now()`, lockedUntil: null })
      .where(ownClaim(job))
      .returning({ id: jobs.id });
    if (done) await scheduleNextRun(tx, job);
  });
  return "succeeded";
}

/** The job is finished as failed; its handler tidies up, and a recurring kind is scheduled again all the same. */
async function giveUp(db: Database, job: JobRow, message: string): Promise<"failed"> {
  await db.transaction(async (tx) => {
    const [dead] = await tx
      .update(jobs)
      .set({ status: "failed", finishedAt: sql`now()`, lockedUntil: null, lastError: message.slice(0, 2000) })
      .where(ownClaim(job))
      .returning({ id: jobs.id });
    if (!dead) return;
    await jobHandlers[job.kind as JobKind].giveUp(tx, job.payload);
    await scheduleNextRun(tx, job);
  });
  return "failed";
}

/** A recurring job queues its successor when it finishes, so it runs again after its interval whatever the outcome. */
async function scheduleNextRun(tx: Database, job: JobRow): Promise<void> {
  const every = recurrence(job.kind as JobKind);
  if (every === undefined || job.singletonKey === null) return;
  await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload,
      singletonKey: job.singletonKey,
      maxAttempts: job.maxAttempts,
      runAt: sql`now() + make_interval(secs => ${every})`,
    })
    .onConflictDoNothing({ target: jobs.singletonKey, where: sql`finished_at is null` });
}

function recurrence(kind: JobKind): number | undefined {
  const spec = jobKinds[kind];
  return "everySeconds" in spec ? spec.everySeconds : undefined;
}

/**
 * Makes sure each recurring kind has one instance scheduled (due now if it had none).
 * The singleton key's unique index settles concurrent starts: every process may call this.
 */
export async function scheduleRecurringJobs(db: Database): Promise<void> {
  for (const kind of JOB_KINDS) {
    if (recurrence(kind) === undefined) continue;
    await db
      .insert(jobs)
      .values({ kind, payload: {}, singletonKey: kind, maxAttempts: jobKinds[kind].maxAttempts })
      .onConflictDoNothing({ target: jobs.singletonKey, where: sql`finished_at is null` });
  }
}
