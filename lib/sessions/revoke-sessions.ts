import { and, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { SessionRevocationReason } from "../audit/event-catalogue";
import { recordEvents, type Actor } from "../audit/record-event";
import type { SessionRow } from "./serialize";

// The one place sessions are revoked. Each revoked session gets its own
// `session.revoked` event (reason + actor), so a webhook consumer can drop exactly
// the sessions that ended. Call these inside the transaction of the change that
// causes the revocation (ban, password change…), so both commit together.
//
// A satellite session (GET /_svc/auth/sync, `parent_session_id`) ends with its
// primary, whatever ended the primary: every revocation here cascades to the
// satellites of the sessions it revoked (reason `primary_session_ended`).

interface UserSessions {
  environmentId: string;
  userId: string;
}

/** Revokes one session if it is still active, and its satellites; returns the revoked row, or null if it was not active. */
export async function revokeSession(
  tx: Database,
  target: UserSessions & { sessionId: string },
  actor: Actor,
  reason: SessionRevocationReason,
): Promise<SessionRow | null> {
  const [revoked] = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(and(eq(sessions.id, target.sessionId), eq(sessions.userId, target.userId), eq(sessions.status, "active")))
    .returning();
  if (!revoked) return null;
  await recordRevocations(tx, target, [revoked.id], actor, reason);
  await revokeSatellites(tx, target, [revoked.id], actor);
  return revoked;
}

/**
 * Revokes every active session of a user, or all but the caller's own
 * (`exceptSessionId`); returns how many (satellites included). "All but mine"
 * keeps the caller's session and, when the caller is a satellite, the primary it
 * hangs off, since revoking that would end the very satellite that asked. Every
 * other satellite goes, also those of a kept primary: a satellite is opened by
 * whoever redeemed its ticket, which need not be this browser, so from the primary
 * "other sessions" (and a password change) include its satellites.
 */
export async function revokeAllUserSessions(
  tx: Database,
  target: UserSessions & { exceptSessionId?: string },
  actor: Actor,
  reason: SessionRevocationReason,
): Promise<number> {
  const kept = target.exceptSessionId ? await lockCallerSignIn(tx, target, target.exceptSessionId) : [];
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(and(eq(sessions.userId, target.userId), eq(sessions.status, "active"), kept.length > 0 ? notInArray(sessions.id, kept) : undefined))
    .returning({ id: sessions.id });
  const ids = revoked.map((row) => row.id);
  await recordRevocations(tx, target, ids, actor, reason);
  return ids.length + (await revokeSatellites(tx, target, ids, actor));
}

/**
 * The caller's session and the primary it is a satellite of, if any, locked FOR
 * UPDATE: a ticket redemption opening a satellite of one of them holds that row FOR
 * SHARE, so it has committed before the revoking statement runs (which then sees
 * the new satellite), or it waits for this transaction.
 */
async function lockCallerSignIn(tx: Database, target: UserSessions, sessionId: string): Promise<string[]> {
  const [row] = await tx
    .select({ id: sessions.id, parentSessionId: sessions.parentSessionId })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, target.userId)))
    .for("update");
  if (!row?.parentSessionId) return [sessionId];
  await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, row.parentSessionId)).for("update");
  return [sessionId, row.parentSessionId];
}

/**
 * Ends the active satellites of sessions just revoked. Its own statement, after the
 * one that revoked the primaries: a ticket redemption that opened a satellite while
 * holding its primary's row (FOR SHARE) has committed by the time the primary's
 * update got that row, and only a later statement's snapshot sees the new satellite.
 */
async function revokeSatellites(tx: Database, target: UserSessions, primaryIds: string[], actor: Actor): Promise<number> {
  if (primaryIds.length === 0) return 0;
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: sql`now()` })
    .where(and(inArray(sessions.parentSessionId, primaryIds), eq(sessions.userId, target.userId), ne(sessions.status, "revoked")))
    .returning({ id: sessions.id });
  const ids = revoked.map((row) => row.id);
  await recordRevocations(tx, target, ids, actor, "primary_session_ended");
  return ids.length;
}

async function recordRevocations(tx: Database, target: UserSessions, sessionIds: string[], actor: Actor, reason: SessionRevocationReason) {
  await recordEvents(
    tx,
    sessionIds.map((sessionId) => ({
      environmentId: target.environmentId,
      type: "session.revoked" as const,
      actor,
      subjectId: target.userId,
      data: { sessionId, reason },
    })),
  );
}
