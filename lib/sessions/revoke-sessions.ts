import { and, eq, inArray, isNull, ne, notInArray, or, sql } from "drizzle-orm";
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
 * keeps the caller's whole sign-in: its session, the primary it is a satellite of,
 * and their satellites (the same browser on the app's other domains), since
 * revoking a primary would end the very satellite that asked.
 */
export async function revokeAllUserSessions(
  tx: Database,
  target: UserSessions & { exceptSessionId?: string },
  actor: Actor,
  reason: SessionRevocationReason,
): Promise<number> {
  const kept = target.exceptSessionId ? await signInFamily(tx, target.exceptSessionId) : [];
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, target.userId),
        eq(sessions.status, "active"),
        kept.length > 0 ? notInArray(sessions.id, kept) : undefined,
        kept.length > 0 ? or(isNull(sessions.parentSessionId), notInArray(sessions.parentSessionId, kept)) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  const ids = revoked.map((row) => row.id);
  await recordRevocations(tx, target, ids, actor, reason);
  return ids.length + (await revokeSatellites(tx, target, ids, actor));
}

/** A session and the primary it is a satellite of, if any: the roots whose satellites belong to the same sign-in. */
async function signInFamily(tx: Database, sessionId: string): Promise<string[]> {
  const [row] = await tx.select({ id: sessions.id, parentSessionId: sessions.parentSessionId }).from(sessions).where(eq(sessions.id, sessionId));
  if (!row) return [sessionId];
  return row.parentSessionId ? [row.id, row.parentSessionId] : [row.id];
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
