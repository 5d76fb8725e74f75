import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { dataRequests, emailAddresses, userIdentities, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { getUserOrThrow } from "./get-user";
import type { ServerUser } from "./schemas";
import { NO_FACTORS, toServerUser } from "./serialize";
import { deleteSecondFactors } from "../mfa/delete-second-factors";
import { releaseMemberships } from "../organizations/release-memberships";

/**
 * Soft-deletes a user in one transaction: status `deleted`, `deletedAt` set, every
 * session revoked, email addresses released for re-use, second factors removed,
 * connected provider accounts released, pending data exports called off, every
 * organization membership removed (an organization it was the last owner of gets
 * another owner, or goes when no one else is left). The row
 * stays (with its last primary email) so audit history keeps its subject. Deleting twice is a no-op.
 */
export async function deleteUser(db: Database, environmentId: string, userId: string, actor: Actor): Promise<ServerUser> {
  return db.transaction(async (tx) => {
    const current = await getUserOrThrow(tx, environmentId, userId, { forUpdate: true });
    if (current.status === "deleted") return toServerUser(current, NO_FACTORS);
    const now = new Date();
    const [row] = await tx
      .update(users)
      .set({ status: "deleted", deletedAt: now, updatedAt: now, passwordHash: null })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new Error("user update returned no row");
    const revokedSessions = await revokeAllUserSessions(tx, { environmentId, userId }, actor, "user_deleted");
    await tx.delete(emailAddresses).where(eq(emailAddresses.userId, userId));
    // A deleted user's provider accounts are free again: the next sign-in with one
    // signs up (or links) afresh instead of finding an account that no longer exists.
    await tx.delete(userIdentities).where(eq(userIdentities.userId, userId));
    // Its credentials go with it, like the password: a sealed TOTP secret has no use left.
    await deleteSecondFactors(tx, userId);
    // After the user's row is locked: releaseMemberships relies on that lock order.
    await releaseMemberships(tx, environmentId, userId, actor);
    // A copy asked for before the deletion must not be built and mailed after it.
    await tx
      .update(dataRequests)
      .set({ status: "failed", completedAt: now })
      .where(and(eq(dataRequests.userId, userId), eq(dataRequests.status, "pending")));
    await recordEvent(tx, { environmentId, type: "user.deleted", actor, subjectId: userId, data: { revokedSessions } });
    return toServerUser(row, NO_FACTORS);
  });
}
