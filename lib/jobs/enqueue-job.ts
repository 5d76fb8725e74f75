import type { Database } from "@/db/client";
import { jobs } from "@/db/schema";
import { jobKinds, type JobKind, type JobPayload } from "./job-kinds";

export type NewJob = {
  [K in JobKind]: { kind: K; payload: JobPayload<K>; environmentId?: string | null; runAt?: Date };
}[JobKind];

/**
 * Queues a job. Call it with the transaction of the change that needs the job (a
 * data request row, say): both commit or neither does, so no job is lost to a crash
 * between them and none runs for a change that rolled back.
 */
export async function enqueueJob(db: Database, job: NewJob): Promise<{ id: string }> {
  const spec = jobKinds[job.kind];
  const [row] = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      environmentId: job.environmentId ?? null,
      payload: spec.payload.parse(job.payload),
      maxAttempts: spec.maxAttempts,
      // The database clock decides when a job is due (claims compare with now()), so it also stamps new jobs.
      runAt: job.runAt,
    })
    .returning({ id: jobs.id });
  if (!row) throw new Error("job insert returned no row");
  return row;
}
