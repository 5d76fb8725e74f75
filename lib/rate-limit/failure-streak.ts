import { eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimitBuckets } from "@/db/schema";

/**
 * Consecutive failures against one key, stored in the shared rate-limit table: `hits`
 * is the streak's length and `windowStart` the time of its latest failure.
 */
export interface FailureStreak {
  failures: number;
  lastFailureAt: Date;
}

export async function readFailureStreak(db: Database, key: string): Promise<FailureStreak | null> {
  const [row] = await db
    .select({ failures: rateLimitBuckets.hits, lastFailureAt: rateLimitBuckets.windowStart })
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.key, key))
    .limit(1);
  return row ?? null;
}

export async function extendFailureStreak(db: Database, key: string): Promise<void> {
  const now = new Date();
  await db
    .insert(rateLimitBuckets)
    .values({ key, windowStart: now, hits: 1 })
    .onConflictDoUpdate({ target: rateLimitBuckets.key, set: { hits: sql`${rateLimitBuckets.hits} + 1`, windowStart: now } });
}

export async function endFailureStreak(db: Database, key: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}
