import { databaseHandle } from "@/db/client";
import { startJobRunner } from "../jobs/job-runner";
import { recordSocketAddressOnEveryServer } from "../server/socket-address";
import { isLeadWorker } from "../server/workers";
import { productionStartProblem } from "./production-checks";
import { upgradeDatabase } from "./upgrade-database";

/**
 * Refuses an unsafe production configuration and brings the database up to date
 * (migrations, then the PUBLIC_URL-dependent steps: upgradeDatabase), so a bare
 * `next start` is as safe as `npm start`. Under a bare `next start` or `next dev`
 * this is also the first code of ours in the server process: from here on every
 * request carries its socket address as the last X-Forwarded-For entry (requests
 * that arrived while Next.js was still booting are the one gap; `npm start`'s own
 * server records it in its listener and has none). Then it starts the process's job runner.
 */
export async function bootServer(): Promise<void> {
  recordSocketAddressOnEveryServer();
  const problem = productionStartProblem();
  if (problem) {
    console.error(`gatehouse: cannot start: ${problem}`);
    process.exit(1);
  }
  // With several worker processes, only the first migrates: two migrators racing on
  // one database would collide. Every worker runs jobs; SKIP LOCKED shares them out.
  if (isLeadWorker()) await upgradeDatabase(databaseHandle());
  startJobRunner(databaseHandle().db);
}
