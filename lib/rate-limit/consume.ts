import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one hit in a fixed window stored in Postgres, so every app instance shares
 * the counters. One upsert: a stale window restarts at 1, a live one increments.
 * Returns the seconds to wait when the hit is over the limit, else 0.
 */
export async function consumeRateLimit(db: Database, key: string, rule: RateLimitRule): Promise<number> {
  return consumeRateLimits(db, [key], rule);
}

/**
 * Counts one hit under each of several keys (an IP and an identifier) in one
 * statement: one round trip per limited request instead of one per key. Keys are
 * upserted in sorted order, so concurrent statements lock rows in the same order and
 * cannot deadlock. Returns the longest wait any key imposes, else 0.
 */
export async function consumeRateLimits(db: Database, keys: readonly string[], rule: RateLimitRule): Promise<number> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return 0;
  const rows = await queryRows<{ hits: number; retry_after: number }>(
    db,
    sql`
      insert into rate_limit_buckets as b (key, window_start, hits)
      values ${sql.join(sorted.map((key) => sql`(${key}, now(), 1)`), sql`, `)}
      on conflict (key) do update set
        hits = case when b.window_start <= now() - make_interval(secs => ${rule.windowSeconds}) then 1 else b.hits + 1 end,
        window_start = case when b.window_start <= now() - make_interval(secs => ${rule.windowSeconds}) then now() else b.window_start end
      returning hits::int as hits,
        ceil(extract(epoch from (window_start + make_interval(secs => ${rule.windowSeconds}) - now())))::int as retry_after`,
  );
  let wait = 0;
  for (const row of rows) if (row.hits > rule.limit) wait = Math.max(wait, Math.max(1, row.retry_after));
  return wait;
}

/** Takes one hit back, for an attempt counted up front that turned out legitimate. */
export async function refundRateLimit(db: Database, key: string): Promise<void> {
  await db.execute(sql`update rate_limit_buckets set hits = greatest(hits - 1, 0) where key = ${key}`);
}
