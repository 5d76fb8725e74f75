import { and, eq, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { SessionRevocationReason } from "../audit/event-catalogue";
import { recordEvents, type Actor } from "../audit/record-event";
import type { SessionRow } from "./serialize";

// The one place sessions are revoked. Each revoked session gets its own
// `session.revoked` event (reason + actor), so a webhook consumer can drop exactly
// the sessions that ended. Call these inside the transaction of the change that
// causes the revocation (ban, password change…), so both commit together.

interface UserSessions {
  environmentId: string;
  userId: string;
}

/** Revokes one session if it is still active; returns the revoked row, or null if it was not active. */
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
  return revoked;
}

/** Revokes every active session of a user, or all but `exceptSessionId` (the caller's own); returns how many. */
export async function revokeAllUserSessions(
  tx: Database,
  target: UserSessions & { exceptSessionId?: string },
  actor: Actor,
  reason: SessionRevocationReason,
): Promise<number> {
  const revoked = await tx
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, target.userId),
        eq(sessions.status, "active"),
        target.exceptSessionId ? ne(sessions.id, target.exceptSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  await recordRevocations(
    tx,
    target,
    revoked.map((row) => row.id),
    actor,
    reason,
  );
  return revoked.length;
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
