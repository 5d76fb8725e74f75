import type { Database } from "@/db/client";
import { logUnexpectedError } from "../log";
import { newClaimant, runDueJobs, scheduleRecurringJobs } from "./run-due-jobs";

/** How often an idle runner looks for due jobs. */
const POLL_MS = 1_000;
/** After a failure to reach the jobs table (database down, say): wait longer, rather than log every second. */
const ERROR_PAUSE_MS = 15_000;
const BATCH = 5;

interface JobRunner {
  /** Stops polling and resolves once the batch in progress (if any) has finished. */
  stop(): Promise<void>;
}

const RUNNER = Symbol.for("gatehouse.jobRunner");
type GlobalWithRunner = typeof globalThis & { [RUNNER]?: JobRunner };

/**
 * Starts this process's job runner: polls for due jobs and runs them, back to back
 * while there are more, every second otherwise. One per process (kept on globalThis,
 * as Next.js may load this module more than once); every server process runs one,
 * and `FOR UPDATE SKIP LOCKED` shares the jobs out between them.
 */
export function startJobRunner(db: Database): JobRunner {
  const scope = globalThis as GlobalWithRunner;
  const existing = scope[RUNNER];
  if (existing) return existing;
  const claimant = newClaimant();
  let stopped = false;
  let recurringScheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = async () => {
    let delay = POLL_MS;
    try {
      if (!recurringScheduled) {
        await scheduleRecurringJobs(db);
        recurringScheduled = true;
      }
      const summary = await runDueJobs(db, { limit: BATCH, claimant });
      if (summary.claimed === BATCH) delay = 0;
    } catch (error) {
      logUnexpectedError("job-runner", error);
      delay = ERROR_PAUSE_MS;
    }
    if (stopped) return;
    // Unref'd: the runner never keeps a process alive on its own.
    timer = setTimeout(() => (inFlight = tick()), delay).unref();
  };
  inFlight = tick();

  const runner: JobRunner = {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      if (scope[RUNNER] === runner) scope[RUNNER] = undefined;
    },
  };
  scope[RUNNER] = runner;
  return runner;
}

/** Stops the process's runner, if one runs (server shutdown, before the database closes). */
export async function stopJobRunner(): Promise<void> {
  await (globalThis as GlobalWithRunner)[RUNNER]?.stop();
}
