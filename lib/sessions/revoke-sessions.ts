import { and, eq, inArray, isNull, ne, notInArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oneTimeCodes, sessions, users } from "@/db/schema";
import type { SessionRevocationReason } from "../audit/event-catalogue";
import { recordEvents, type Actor, type NewEvent } from "../audit/record-event";
import { impersonatorOf } from "./impersonator";
import type { SessionRow } from "./serialize";

// The one place sessions are revoked. Each revoked session gets its own
// `session.revoked` event (reason + actor), so a webhook consumer can drop exactly
// the sessions that ended. Call these inside the transaction of the change that
// causes the revocation (ban, password change…), so both commit together.
//
// A satellite session (GET /_svc/auth/sync, `parent_session_id`) ends with its
// primary, whatever ended the primary: every revocation here cascades to the
// satellites of the sessions it revoked (reason `primary_session_ended`).
// Revoking all of a user's sessions also ends the sign-ins still on their way to
// one (lib/sessions/sign-in-generation.ts).

interface UserSessions {
  environmentId: string;
  userId: string;
}

/** A session just revoked: its id, its user (the subject of its event) and its impersonator, if any. */
type Revoked = Pick<SessionRow, "id" | "userId" | "impersonatorType" | "impersonatorId">;

/** The columns each revoking statement returns. */
const REVOKED = { id: sessions.id, userId: sessions.userId, impersonatorType: sessions.impersonatorType, impersonatorId: sessions.impersonatorId };

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
  await recordRevocations(tx, target.environmentId, [revoked], actor, reason);
  await revokeSatellites(tx, target.environmentId, [revoked], actor);
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
  // Ends the sign-ins still on their way to a session (sign-in-generation.ts). First,
  // before any session row: redemptions lock the user, then a session (order of locks).
  await tx
    .update(users)
    .set({ signInGeneration: sql`${users.signInGeneration} + 1` })
    .where(and(eq(users.id, target.userId), eq(users.environmentId, target.environmentId)));
  const kept = target.exceptSessionId ? await lockCallerSignIn(tx, target.exceptSessionId) : [];
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(and(eq(sessions.userId, target.userId), eq(sessions.status, "active"), kept.length > 0 ? notInArray(sessions.id, kept) : undefined))
    .returning(REVOKED);
  await recordRevocations(tx, target.environmentId, revoked, actor, reason);
  return revoked.length + (await revokeSatellites(tx, target.environmentId, revoked, actor));
}

/** The provider sign-ins of these users still on their way to a session: a native or satellite ticket, a second-factor challenge. */
function oauthSignInsInFlight(environmentId: string, userIds: string[] | SQLWrapper) {
  return and(
    eq(oneTimeCodes.environmentId, environmentId),
    inArray(oneTimeCodes.userId, userIds),
    inArray(oneTimeCodes.purpose, ["session_ticket", "mfa_challenge"]),
    isNull(oneTimeCodes.consumedAt),
    sql`${oneTimeCodes.payload} -> 'methods' ->> 0 = 'oauth'`,
  );
}

/**
 * Locks the provider sign-ins of these users still in flight (oauthSignInsInFlight),
 * in id order. A transaction that will call revokeOAuthSignIns runs this before it
 * locks the users: redeeming a ticket or a challenge takes the code, then the user,
 * then the session, so taking them in that same order makes the two queue instead
 * of deadlocking.
 */
export async function lockOAuthSignInsInFlight(tx: Database, environmentId: string, userIds: string[] | SQLWrapper): Promise<void> {
  await tx
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(oauthSignInsInFlight(environmentId, userIds))
    .orderBy(oneTimeCodes.id)
    .for("update");
}

/**
 * Ends what a provider sign-in opened for these users, when the provider account
 * that proved it goes (its identity removed, or its provider): the active sessions
 * whose first method is `oauth`, and the sign-ins still on their way to a session
 * (a native app's or satellite's ticket, a second-factor challenge), so none opens
 * after the removal. A session records that a provider opened it, not which one,
 * so every provider-opened session of the user ends; password, code and passkey
 * sign-ins are kept. `exceptSessionId` keeps the caller's own sign-in as in
 * `revokeAllUserSessions` (a user disconnecting an account from a provider-opened
 * session). Run it after the identity rows are deleted or locked: a concurrent
 * sign-in through one of them has then committed its session, which this sees;
 * and lockOAuthSignInsInFlight first, before the users' rows are locked.
 */
export async function revokeOAuthSignIns(
  tx: Database,
  target: { environmentId: string; userIds: string[] | SQLWrapper; exceptSessionId?: string },
  actor: Actor,
  reason: SessionRevocationReason,
): Promise<number> {
  const kept = target.exceptSessionId ? await lockCallerSignIn(tx, target.exceptSessionId) : [];
  const openedByProvider = sql`${sessions.amr}[1] = 'oauth'`;
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(
      and(
        eq(sessions.environmentId, target.environmentId),
        inArray(sessions.userId, target.userIds),
        eq(sessions.status, "active"),
        openedByProvider,
        kept.length > 0 ? notInArray(sessions.id, kept) : undefined,
      ),
    )
    .returning(REVOKED);
  await recordRevocations(tx, target.environmentId, revoked, actor, reason);
  await tx.update(oneTimeCodes).set({ consumedAt: new Date() }).where(oauthSignInsInFlight(target.environmentId, target.userIds));
  return revoked.length + (await revokeSatellites(tx, target.environmentId, revoked, actor));
}

/**
 * The caller's session and the primary it is a satellite of, if any, locked FOR
 * UPDATE: a ticket redemption opening a satellite of one of them holds that row FOR
 * SHARE, so it has committed before the revoking statement runs (which then sees
 * the new satellite), or it waits for this transaction.
 */
async function lockCallerSignIn(tx: Database, sessionId: string): Promise<string[]> {
  const [row] = await tx
    .select({ id: sessions.id, parentSessionId: sessions.parentSessionId })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
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
async function revokeSatellites(tx: Database, environmentId: string, primaries: Revoked[], actor: Actor): Promise<number> {
  if (primaries.length === 0) return 0;
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: sql`now()` })
    .where(
      and(
        inArray(sessions.parentSessionId, primaries.map((row) => row.id)),
        inArray(sessions.userId, [...new Set(primaries.map((row) => row.userId))]),
        ne(sessions.status, "revoked"),
      ),
    )
    .returning(REVOKED);
  await recordRevocations(tx, environmentId, revoked, actor, "primary_session_ended");
  return revoked.length;
}

/** One `session.revoked` per session, and for an impersonation session the end of the impersonation beside it. */
async function recordRevocations(tx: Database, environmentId: string, revoked: Revoked[], actor: Actor, reason: SessionRevocationReason) {
  await recordEvents(
    tx,
    revoked.flatMap((row): NewEvent[] => {
      const ended: NewEvent = { environmentId, type: "session.revoked", actor, subjectId: row.userId, data: { sessionId: row.id, reason } };
      const impersonator = impersonatorOf(row);
      if (!impersonator) return [ended];
      return [ended, { environmentId, type: "user.impersonation_ended", actor, subjectId: row.userId, data: { sessionId: row.id, actorId: impersonator.id, reason } }];
    }),
  );
}
