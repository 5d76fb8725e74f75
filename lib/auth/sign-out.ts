import type { Database } from "@/db/client";
import { requestIdFor } from "../http/request-id";
import { clearedSessionCookies } from "../sessions/cookies";
import type { ActiveSession } from "../sessions/resolve-session";
import { revokeSession } from "../sessions/revoke-sessions";

/** Revokes the caller's session (if any) and returns the Set-Cookie values that clear the cookie and its hint. */
export async function signOut(db: Database, current: ActiveSession | null, request: Request): Promise<string[]> {
  if (current) {
    const { environmentId, userId, id: sessionId } = current.session;
    const actor = { type: "user", id: current.user.id, requestId: requestIdFor(request) } as const;
    await db.transaction((tx) => revokeSession(tx, { environmentId, userId, sessionId }, actor, "sign_out"));
  }
  return clearedSessionCookies(request);
}
