import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import path from "node:path";
import type { DatabaseHandle } from "./client";
import type * as schema from "./schema";

export const MIGRATIONS_FOLDER = path.join(/* turbopackIgnore: true */ process.cwd(), "db", "migrations");

/** Applies pending migrations; a no-op when the database is current. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as PgliteDatabase<typeof schema>, config);
  } else {
    await migratePostgres(handle.db as PostgresJsDatabase<typeof schema>, config);
  }
}
