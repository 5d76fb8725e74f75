import type { Database } from "@/db/client";
import type { RequestContext } from "../http/request-context";
import type { ActiveSession } from "../sessions/resolve-session";
import { revokeSession } from "../sessions/revoke-sessions";

/** Revokes the caller's session, if any. The caller clears the cookie (ResponseEffects.clearSession). */
export async function signOut(db: Database, current: ActiveSession | null, context: RequestContext): Promise<{ status: "signed_out" }> {
  if (current) {
    const { environmentId, userId, id: sessionId } = current.session;
    const actor = { type: "user", id: current.user.id, requestId: context.requestId } as const;
    await db.transaction((tx) => revokeSession(tx, { environmentId, userId, sessionId }, actor, "sign_out"));
  }
  return { status: "signed_out" };
}
