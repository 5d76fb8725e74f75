import { databaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { startJobRunner } from "../jobs/job-runner";
import { isLeadWorker } from "../server/workers";
import { productionStartProblem } from "./production-checks";

/**
 * Refuses an unsafe production configuration and applies pending migrations, so a
 * bare `next start` is as safe as `npm start`; then starts the process's job runner.
 */
export async function bootServer(): Promise<void> {
  const problem = productionStartProblem();
  if (problem) {
    console.error(`gatehouse: cannot start: ${problem}`);
    process.exit(1);
  }
  // With several worker processes, only the first migrates: two migrators racing on
  // one database would collide. Every worker runs jobs; SKIP LOCKED shares them out.
  if (isLeadWorker()) await migrateDatabase(databaseHandle());
  startJobRunner(databaseHandle().db);
}
