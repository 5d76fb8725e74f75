import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { Actor } from "../audit/record-event";
import { AppError } from "../errors";
import type { ActiveSession } from "./resolve-session";
import { revokeAllUserSessions, revokeSession } from "./revoke-sessions";
import { sessionSchema } from "./schemas";
import { toSessionView } from "./serialize";

export const mySessionSchema = sessionSchema
  .extend({ current: z.boolean().meta({ description: "True for the session making this request." }) })
  .meta({ id: "MySession" });

export const mySessionsSchema = z.object({ items: z.array(mySessionSchema) }).meta({ id: "MySessions" });

/** The caller's active sessions (devices), newest first, the current one flagged. */
export async function listMySessions(db: Database, current: ActiveSession) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, current.user.id), eq(sessions.status, "active")))
    .orderBy(desc(sessions.lastActiveAt))
    .limit(100);
  const items = rows
    .map(toSessionView)
    .filter((session) => session.status === "active")
    .map((session) => ({ ...session, current: session.id === current.session.id }));
  return { items };
}

/** Revokes one of the caller's own sessions (another device); the caller's cookies are untouched. */
export async function revokeMySession(db: Database, current: ActiveSession, sessionId: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, current.user.id)))
      .limit(1);
    if (!row) throw new AppError("resource_not_found", "You have no session with this id.");
    const revoked = await revokeSession(tx, { environmentId: row.environmentId, userId: row.userId, sessionId }, actor, "revoke");
    return toSessionView(revoked ?? row);
  });
}

/** Signs the caller out everywhere but here. */
export async function revokeOtherSessions(db: Database, current: ActiveSession, actor: Actor) {
  return db.transaction(async (tx) => {
    const target = { environmentId: current.session.environmentId, userId: current.user.id, exceptSessionId: current.session.id };
    const revokedCount = await revokeAllUserSessions(tx, target, actor, "revoke_others");
    return { revokedCount };
  });
}
