import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { databaseUrl, dataDir } from "./config";
import * as schema from "./schema";

/** The drizzle handle every service takes; a transaction handle has the same type. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

const HANDLE = Symbol.for("gatehouse.database");
type GlobalWithHandle = typeof globalThis & { [HANDLE]?: DatabaseHandle };

/** `DATABASE_URL` → postgres.js; unset → PGlite stored in `<DATA_DIR>/pglite`. */
export function openDatabase(options: { url?: string; poolSize?: number } = {}): DatabaseHandle {
  const url = options.url ?? databaseUrl();
  if (url) {
    const client = postgres(url, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      // A database that does not answer fails the request with 503 in seconds
      // (lib/http/database-faults.ts) instead of holding it for the default 30 s.
      connect_timeout: 5,
      // postgres.js counts every dropped connection towards one pool-wide backoff of
      // up to 20 s before reconnecting; after a restart drops the whole pool at once
      // that would stall every request. Reconnect within a second instead.
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
    });
    return {
      db: drizzlePostgres(client, { schema }),
      kind: "postgres",
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dir = path.join(dataDir(), "pglite");
  fs.mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, { extensions: { pg_trgm } });
  return {
    db: drizzlePglite(client, { schema }),
    kind: "pglite",
    close: () => client.close(),
  };
}

/**
 * The process-wide database. Kept on globalThis because Next.js may evaluate this
 * module once per route bundle, and PGlite must never open its folder twice.
 */
export function getDb(): Database {
  return databaseHandle().db;
}

export function databaseHandle(): DatabaseHandle {
  const scope = globalThis as GlobalWithHandle;
  scope[HANDLE] ??= openDatabase();
  return scope[HANDLE];
}

export async function closeDb(): Promise<void> {
  const scope = globalThis as GlobalWithHandle;
  const handle = scope[HANDLE];
  scope[HANDLE] = undefined;
  await handle?.close();
}

/** Rows of a raw SQL query; postgres.js returns an array, PGlite a `{rows}` object. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
