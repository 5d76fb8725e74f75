import { and, eq, inArray, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { sha256 } from "../crypto/tokens";
import type { EnvironmentContext } from "../environments/context";
import { clearedSessionCookies } from "../sessions/cookies";
import { isSessionToken, sessionCookieValues, type ActiveSession } from "../sessions/resolve-session";

/**
 * Revokes the caller's session (if any) and returns the Set-Cookie values that clear
 * the cookie and its hint. Without a session of this environment the cookie is still
 * cleared (signing out twice is fine), unless it holds another environment's session:
 * environments reached through one host (PUBLIC_URL with `pk`) share its cookie jar,
 * and one of them must not sign the user out of another.
 */
export async function signOut(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  request: Request,
): Promise<string[]> {
  if (current) {
    await db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({ status: "revoked", revokedAt: new Date() })
        .where(and(eq(sessions.id, current.session.id), eq(sessions.status, "active")));
      await recordEvent(tx, {
        environmentId: current.session.environmentId,
        type: "session.ended",
        actor: { type: "user", id: current.user.id, requestId: null },
        subjectId: current.user.id,
        data: { sessionId: current.session.id },
      });
    });
  } else if (await cookieOfAnotherEnvironment(db, environment, request)) {
    return [];
  }
  return clearedSessionCookies(request);
}

async function cookieOfAnotherEnvironment(db: Database, environment: EnvironmentContext, request: Request): Promise<boolean> {
  const hashes = sessionCookieValues(request).filter(isSessionToken).map(sha256);
  if (hashes.length === 0) return false;
  const [foreign] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, hashes), ne(sessions.environmentId, environment.id)))
    .limit(1);
  return Boolean(foreign);
}
