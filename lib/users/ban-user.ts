import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { getLiveUserOrThrow } from "./get-user";
import type { ServerUser } from "./schemas";
import { toServerUser } from "./serialize";
import { readUserSummary } from "./user-summary";

/** Bans a user and revokes all their sessions in the same transaction, so no session outlives the ban. */
export async function banUser(db: Database, environmentId: string, userId: string, actor: Actor): Promise<ServerUser> {
  return setBanned(db, environmentId, userId, actor, true);
}

/** Lifts a ban; the user can sign in again on their next request. Unbanning an active user is a no-op. */
export async function unbanUser(db: Database, environmentId: string, userId: string, actor: Actor): Promise<ServerUser> {
  return setBanned(db, environmentId, userId, actor, false);
}

async function setBanned(db: Database, environmentId: string, userId: string, actor: Actor, banned: boolean) {
  return db.transaction(async (tx) => {
    await getLiveUserOrThrow(tx, environmentId, userId, { forUpdate: true });
    const [row] = await tx
      .update(users)
      .set({ status: banned ? "banned" : "active", updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new Error("user update returned no row");
    if (banned) {
      const revokedSessions = await revokeAllUserSessions(tx, { environmentId, userId }, actor, "user_banned");
      await recordEvent(tx, { environmentId, type: "user.banned", actor, subjectId: userId, data: { revokedSessions } });
    } else {
      await recordEvent(tx, { environmentId, type: "user.unbanned", actor, subjectId: userId });
    }
    return toServerUser(row, await readUserSummary(tx, userId));
  });
}
