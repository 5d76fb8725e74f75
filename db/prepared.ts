import type { Database } from "./client";

const statements = new WeakMap<Database, Map<string, unknown>>();

/**
 * A prepared statement for the hot lookups every request makes (API key, session,
 * environment): built once per database handle, so neither drizzle nor Postgres
 * plans the same query again for each request.
 */
export function preparedStatement<T>(db: Database, name: string, build: (db: Database) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}
