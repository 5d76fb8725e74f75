import { z } from "zod";
import type { Database } from "@/db/client";
import type { SystemActor } from "../audit/record-event";
import { buildRequestedExport, markDataRequestFailed } from "../users/data-requests";
import { cleanUp } from "./clean-up";
import { jobKinds, type JobKind, type JobPayload } from "./job-kinds";

export interface JobContext {
  jobId: string;
  /** The system, with the job's id where a request id would be. */
  actor: SystemActor;
}

interface Handler<K extends JobKind> {
  /**
   * Does the job. Jobs run at least once, not exactly once (a runner may stop after
   * the work and before marking it done), so a rerun must be harmless.
   */
  run(db: Database, payload: JobPayload<K>, context: JobContext): Promise<void>;
  /** After the last attempt failed: leave the job's subject in a state a person can act on. */
  giveUp?(db: Database, payload: JobPayload<K>): Promise<void>;
}

/** A payload that does not fit its kind will never run: the runner gives it up at once. */
export class InvalidJobPayload extends Error {}

export interface RunnableJob {
  run(db: Database, payload: unknown, context: JobContext): Promise<void>;
  giveUp(db: Database, payload: unknown): Promise<void>;
}

/** Checks a stored payload against its kind before the typed handler sees it. */
function runnable<K extends JobKind>(kind: K, handler: Handler<K>): RunnableJob {
  const parse = (payload: unknown): JobPayload<K> => {
    const parsed = jobKinds[kind].payload.safeParse(payload);
    if (!parsed.success) throw new InvalidJobPayload(`payload does not fit ${kind}: ${z.prettifyError(parsed.error)}`);
    return parsed.data as JobPayload<K>;
  };
  return {
    run: (db, payload, context) => handler.run(db, parse(payload), context),
    giveUp: async (db, payload) => {
      const parsed = jobKinds[kind].payload.safeParse(payload);
      if (parsed.success) await handler.giveUp?.(db, parsed.data as JobPayload<K>);
    },
  };
}

/** What each kind does; a kind without a handler here fails to compile. */
export const jobHandlers: Record<JobKind, RunnableJob> = {
  data_export: runnable("data_export", {
    run: (db, payload, context) => buildRequestedExport(db, payload.dataRequestId, context.actor),
    giveUp: (db, payload) => markDataRequestFailed(db, payload.dataRequestId),
  }),
  clean_up: runnable("clean_up", {
    run: async (db) => {
      await cleanUp(db);
    },
  }),
};
