import { z } from "zod";

interface JobKindSpec {
  payload: z.ZodType<Record<string, unknown>>;
  /** Runs before the job is given up (the first one counts). */
  maxAttempts: number;
  /** A recurring kind: one instance is kept scheduled, the next run this long after the last one finished. */
  everySeconds?: number;
}

/**
 * Every kind of job, with its payload's shape. Enqueueing checks the payload against
 * it at compile time and the runner checks it again when it reads the row back.
 * Handlers live in job-handlers.ts, apart from this list, so that the code that
 * enqueues a job need not import the code that runs it.
 */
export const jobKinds = {
  /** Builds a requested copy of a user's data and emails the link (lib/users/data-requests.ts). */
  data_export: { payload: z.strictObject({ dataRequestId: z.uuid() }), maxAttempts: 5 },
  /** Deletes what has outlived its use (lib/jobs/clean-up.ts). */
  clean_up: { payload: z.strictObject({}), maxAttempts: 3, everySeconds: 60 * 60 },
} as const satisfies Record<string, JobKindSpec>;

export type JobKind = keyof typeof jobKinds;
export type JobPayload<K extends JobKind> = z.output<(typeof jobKinds)[K]["payload"]>;

export const JOB_KINDS = Object.keys(jobKinds) as JobKind[];
