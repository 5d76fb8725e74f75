import { databaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { resumePendingDataRequests } from "../users/data-requests";
import { isLeadWorker } from "../server/workers";
import { productionStartProblem } from "./production-checks";

/**
 * Refuses an unsafe production configuration and applies pending migrations, so a
 * bare `next start` is as safe as `npm start`.
 */
export async function bootServer(): Promise<void> {
  const problem = productionStartProblem();
  if (problem) {
    console.error(`gatehouse: cannot start: ${problem}`);
    process.exit(1);
  }
  // With several worker processes, only the first migrates and resumes jobs: two
  // migrators racing on one database, or two workers resuming one export, would collide.
  if (!isLeadWorker()) return;
  await migrateDatabase(databaseHandle());
  await resumePendingDataRequests(databaseHandle().db);
}
