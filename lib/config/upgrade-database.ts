import type { DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { respellFrontendHosts } from "../environments/respell-frontend-hosts";

/**
 * Brings a database up to this version: the SQL migrations, then the steps that
 * depend on this process's configuration, which a migration cannot know (frontend
 * hosts spelled for PUBLIC_URL: respellFrontendHosts). Both do nothing on a current
 * database. The server's boot and `npm start` (which hands its environment to the
 * server it starts) call this; the CLI only migrates, since the PUBLIC_URL of the
 * shell it runs in need not be the one the hosts are served under.
 */
export async function upgradeDatabase(handle: DatabaseHandle): Promise<void> {
  await migrateDatabase(handle);
  await respellFrontendHosts(handle.db);
}
