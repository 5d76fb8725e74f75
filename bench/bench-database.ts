import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/** A database of its own, so a million seeded users never land in a development or test database. */
export const DEFAULT_BENCH_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatehouse_bench";

export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
}

/** The URL without its password, for headers and progress lines. */
export function describeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Creates the bench database when missing. CREATE DATABASE cannot run inside the
 * target database itself, so this connects to a maintenance database first:
 * `postgres`, else `test` (some servers here only expose the latter).
 */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bench database name must be a plain identifier, got "${name}"`);
  let lastError: unknown;
  for (const maintenance of ["postgres", "test"]) {
    const sql = postgres(withDatabase(url, maintenance), { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ exists: boolean }[]>`select exists (select 1 from pg_database where datname = ${name}) as exists`;
      if (!row?.exists) {
        console.log(`creating database ${name}`);
        await sql.unsafe(`create database "${name}"`);
      }
      return;
    } catch (error) {
      lastError = error;
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  throw new Error(`could not reach a maintenance database next to ${describeUrl(url)}`, { cause: lastError });
}

/** Creates (if needed), opens and migrates the bench database. */
export async function openBenchDatabase(url: string, poolSize = 4): Promise<DatabaseHandle> {
  await ensureDatabaseExists(url);
  const handle = openDatabase({ url, poolSize });
  await migrateDatabase(handle);
  return handle;
}
