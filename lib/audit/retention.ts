import { and, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments, events } from "@/db/schema";
import { readSettings } from "../environments/settings";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Events deleted per statement: each is one range of the (environment, created_at)
 * index and a short lock, so a first run on a log of millions never holds one long
 * transaction.
 */
const DELETE_BATCH = 5_000;

/**
 * The audit log's retention (environment setting `auditLog.retentionDays`), run by
 * the hourly clean-up (lib/jobs/clean-up.ts): deletes each environment's events
 * created before its cutoff, oldest first, in bounded batches. Idempotent: two
 * processes running it at once delete disjoint or already-gone rows.
 *
 * Issue 18's webhooks will deliver events from this table as an outbox: once a
 * dispatch marker exists, an event not yet dispatched must not be deleted here,
 * whatever its age (add that condition to `expired` below).
 */
export async function deleteExpiredAuditEvents(db: Database, now: Date = new Date()): Promise<number> {
  const rows = await db.select({ id: environments.id, settings: environments.settings }).from(environments);
  let total = 0;
  for (const environment of rows) {
    const cutoff = new Date(now.getTime() - readSettings(environment.settings).auditLog.retentionDays * DAY_MS);
    total += await deleteEventsBefore(db, environment.id, cutoff);
  }
  return total;
}

async function deleteEventsBefore(db: Database, environmentId: string, cutoff: Date): Promise<number> {
  const expired = and(eq(events.environmentId, environmentId), lt(events.createdAt, cutoff));
  let total = 0;
  for (;;) {
    const batch = db.select({ id: events.id }).from(events).where(expired).orderBy(events.createdAt).limit(DELETE_BATCH);
    const deleted = await db.delete(events).where(inArray(events.id, batch)).returning({ id: events.id });
    total += deleted.length;
    if (deleted.length < DELETE_BATCH) return total;
  }
}
