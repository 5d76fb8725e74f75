import type { SQL } from "drizzle-orm";
import type { Database } from "./client";

/**
 * The rows of a raw statement, from either driver: postgres.js answers the rows
 * themselves, PGlite an object holding them. For the statements drizzle's builder
 * cannot write (data-modifying CTEs that answer a row).
 */
export async function executeRows<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
