import { and, inArray, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { sessionActor } from "../sessions/impersonator";
import type { ActiveSession } from "../sessions/resolve-session";
import { revokeSession } from "../sessions/revoke-sessions";

/**
 * Revokes the caller's session (if any) and says whether to clear the cookie.
 * Without a session of this environment the cookie is still cleared (signing out
 * twice is fine), unless it holds another environment's session: environments
 * reached through one host (PUBLIC_URL with `pk`) share its cookie jar, and one of
 * them must not sign the user out of another.
 */
export async function signOut(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  context: RequestContext,
): Promise<{ status: "signed_out"; clearCookie: boolean }> {
  if (current) {
    const { environmentId, userId, id: sessionId } = current.session;
    const actor = sessionActor(current, context.requestId);
    await db.transaction((tx) => revokeSession(tx, { environmentId, userId, sessionId }, actor, "sign_out"));
    return { status: "signed_out", clearCookie: true };
  }
  return { status: "signed_out", clearCookie: !(await cookieOfAnotherEnvironment(db, environment, context.sessionCookieHashes)) };
}

async function cookieOfAnotherEnvironment(db: Database, environment: EnvironmentContext, hashes: string[]): Promise<boolean> {
  if (hashes.length === 0) return false;
  const [foreign] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, hashes), ne(sessions.environmentId, environment.id)))
    .limit(1);
  return Boolean(foreign);
}
