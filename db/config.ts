import path from "node:path";

/*
 * The settings the database layer reads from the process environment, at call time
 * so tests and scripts can set them first. They live here, below lib/, because db/
 * imports nothing of lib/ (STYLE rule 17); lib/ reads them from here too.
 */

/** `DATABASE_URL`: a Postgres server; unset means the embedded PGlite database. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/** `./.data` unless `DATA_DIR` says otherwise: embedded database, generated dev secret. */
export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.env.DATA_DIR ?? ".data");
}
