import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { Actor } from "../audit/record-event";
import { AppError, invalidField } from "../errors";
import { getUserOrThrow } from "../users/get-user";
import { revokeAllUserSessions, revokeSession } from "./revoke-sessions";
import { toSessionView } from "./serialize";

/** A user's sessions, newest first, keyset-paginated like users. */
export async function listUserSessions(
  db: Database,
  environmentId: string,
  userId: string,
  page: { limit: number; cursor?: string },
) {
  await getUserOrThrow(db, environmentId, userId);
  const after = page.cursor
    ? sql`(${sessions.createdAt}, ${sessions.id}) < (select c.created_at, c.id from sessions c where c.id = ${page.cursor} and c.user_id = ${userId})`
    : undefined;
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), after))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(page.limit + 1);
  if (rows.length === 0 && page.cursor) await assertCursorExists(db, userId, page.cursor);
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toSessionView);
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
}

/**
 * A cursor that names none of the user's sessions matches no row, which looked like
 * the end of the list; as for users, it is refused so a caller never stops early.
 */
async function assertCursorExists(db: Database, userId: string, cursor: string): Promise<void> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, cursor), eq(sessions.userId, userId)))
    .limit(1);
  if (!row) throw invalidField("cursor", "is not a nextCursor of this user's sessions");
}

/**
 * Revokes one session. Idempotent: an already revoked or expired session is fine.
 * A session of another environment is 403, one of another user in this environment 404.
 */
export async function revokeUserSession(
  db: Database,
  environmentId: string,
  userId: string,
  sessionId: string,
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    await getUserOrThrow(tx, environmentId, userId);
    const [session] = await tx.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
    if (session && session.environmentId !== environmentId) {
      throw new AppError("environment_mismatch", "The session belongs to a different environment.");
    }
    if (!session || session.userId !== userId) throw new AppError("resource_not_found", "The user has no session with this id.");
    await revokeSession(tx, { environmentId, userId, sessionId }, actor, "revoke");
  });
}

/** Revokes every active session of the user. */
export async function revokeAllSessionsOfUser(
  db: Database,
  environmentId: string,
  userId: string,
  actor: Actor,
): Promise<{ revokedCount: number }> {
  return db.transaction(async (tx) => {
    await getUserOrThrow(tx, environmentId, userId);
    const revokedCount = await revokeAllUserSessions(tx, { environmentId, userId }, actor, "revoke_all");
    return { revokedCount };
  });
}
