import { and, eq, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "@/db/client";
import { deleteExpiredAuditEvents } from "../audit/retention";
import { dataRequests, emailAddresses, jobs, oauthFlows, oneTimeCodes, outboxEmails, rateLimitBuckets, sessions, webauthnChallenges } from "@/db/schema";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each kind of row is kept once it has stopped being useful. */
export const RETENTION_DAYS = {
  /**
   * Expired or used codes: kept a little longer than the longest window that counts
   * an address's codes (a day), so deleting them can never reset a daily cap.
   */
  oneTimeCodes: 2,
  /** A bucket older than the longest rate-limit window (a day, see settings) counts for nothing. */
  rateLimitBuckets: 2,
  /** Revoked and expired sessions stay listed (as revoked) and in data exports for a month. */
  sessions: 30,
  /** The development mailbox (outbox transport). */
  outboxEmails: 7,
  /** Finished jobs, kept for looking into failures. */
  finishedJobs: 7,
  /** Pending email addresses whose link lapsed: they hold nothing and are no longer listed. */
  lapsedEmailAddresses: 0,
  /** Passkey challenges: spent or not, one past its expiry can no longer finish a ceremony. */
  webauthnChallenges: 0,
  /** OAuth flows: used or not, one past its 10 minutes can no longer complete. */
  oauthFlows: 0,
} as const;

/** `auditEvents`: the audit log, kept per environment (setting auditLog.retentionDays, lib/audit/retention.ts). */
export type CleanUpCounts = Record<keyof typeof RETENTION_DAYS | "exportsWiped" | "auditEvents", number>;

/** Rows deleted per statement: a first run on a large database deletes in many short steps, not one long lock. */
const BATCH = 1000;

/**
 * The periodic clean-up (job kind `clean_up`, hourly): deletes what has outlived
 * its use and wipes export files that can no longer be downloaded. Each step is a
 * plain delete of rows past a cutoff, so running it twice, or on two processes at
 * once, is harmless.
 */
export async function cleanUp(db: Database, now: Date = new Date()): Promise<CleanUpCounts> {
  const cutoff = (key: keyof typeof RETENTION_DAYS) => new Date(now.getTime() - RETENTION_DAYS[key] * DAY_MS);
  const codes = cutoff("oneTimeCodes");
  const sessionCutoff = cutoff("sessions");
  return {
    oneTimeCodes: await deleteInBatches(
      db,
      oneTimeCodes,
      oneTimeCodes.id,
      or(lt(oneTimeCodes.consumedAt, codes), lt(oneTimeCodes.expiresAt, codes)),
    ),
    rateLimitBuckets: await deleteInBatches(db, rateLimitBuckets, rateLimitBuckets.key, lt(rateLimitBuckets.windowStart, cutoff("rateLimitBuckets"))),
    sessions: await deleteInBatches(
      db,
      sessions,
      sessions.id,
      or(and(eq(sessions.status, "revoked"), lt(sessions.revokedAt, sessionCutoff)), lt(sessions.expiresAt, sessionCutoff)),
    ),
    outboxEmails: await deleteInBatches(db, outboxEmails, outboxEmails.id, lt(outboxEmails.createdAt, cutoff("outboxEmails"))),
    finishedJobs: await deleteInBatches(db, jobs, jobs.id, lt(jobs.finishedAt, cutoff("finishedJobs"))),
    lapsedEmailAddresses: await deleteInBatches(
      db,
      emailAddresses,
      emailAddresses.id,
      and(isNull(emailAddresses.verifiedAt), lte(emailAddresses.expiresAt, cutoff("lapsedEmailAddresses"))),
    ),
    webauthnChallenges: await deleteInBatches(
      db,
      webauthnChallenges,
      webauthnChallenges.id,
      lte(webauthnChallenges.expiresAt, cutoff("webauthnChallenges")),
    ),
    oauthFlows: await deleteInBatches(db, oauthFlows, oauthFlows.id, lte(oauthFlows.expiresAt, cutoff("oauthFlows"))),
    exportsWiped: await wipeDeadExports(db, now),
    auditEvents: await deleteExpiredAuditEvents(db, now),
  };
}

async function deleteInBatches(db: Database, table: PgTable, key: PgColumn, condition: SQL | undefined): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = db.select({ key }).from(table).where(condition).limit(BATCH);
    const deleted = await db.delete(table).where(inArray(key, batch)).returning({ key });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}

/**
 * A sealed export is personal data: once downloaded or past its link's expiry it can
 * never be handed out again, so it is wiped (download already wipes; this catches
 * the links nobody opened). The request row stays, marked expired, for the user's list.
 */
async function wipeDeadExports(db: Database, now: Date): Promise<number> {
  const wiped = await db
    .update(dataRequests)
    .set({
      status: sql`case when ${dataRequests.status} = 'ready' then 'expired' else ${dataRequests.status} end`,
      exportSealed: null,
      downloadTokenHash: null,
    })
    .where(
      and(
        or(isNotNull(dataRequests.exportSealed), isNotNull(dataRequests.downloadTokenHash)),
        or(eq(dataRequests.status, "downloaded"), and(eq(dataRequests.status, "ready"), lte(dataRequests.expiresAt, now))),
      ),
    )
    .returning({ id: dataRequests.id });
  return wiped.length;
}
