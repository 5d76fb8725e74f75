import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import type { RequestContext } from "../http/request-context";
import type { ActiveSession } from "../sessions/resolve-session";

/** Revokes the caller's session, if any. The caller clears the cookie (ResponseEffects.clearSession). */
export async function signOut(db: Database, current: ActiveSession | null, context: RequestContext): Promise<{ status: "signed_out" }> {
  if (current) {
    await db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({ status: "revoked", revokedAt: new Date() })
        .where(and(eq(sessions.id, current.session.id), eq(sessions.status, "active")));
      await recordEvent(tx, {
        environmentId: current.session.environmentId,
        type: "session.ended",
        actor: { type: "user", id: current.user.id, requestId: context.requestId },
        subjectId: current.user.id,
        data: { sessionId: current.session.id },
      });
    });
  }
  return { status: "signed_out" };
}
