import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { operators } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { deleteUser } from "../users/delete-user";
import { internalEnvironment } from "./internal-environment";
import type { OperatorSummary } from "./operators";

/**
 * Removes an operator at once: their operator row goes and their user is deleted
 * (lib/users/delete-user.ts: every session revoked, the address free for a new
 * operator), so a dashboard session of theirs is refused on its next request
 * (lib/dashboard/operator-session.ts re-reads both). The last owner cannot be
 * removed: nobody could manage operators any more.
 */
export async function removeOperator(db: Database, operator: Pick<OperatorSummary, "id" | "userId">, actor: Actor): Promise<void> {
  const environment = await internalEnvironment(db);
  await db.transaction(async (tx) => {
    // Owners are locked in id order, so two removals of the last two owners queue and the second one is refused.
    const owners = await tx.select({ id: operators.id }).from(operators).where(eq(operators.role, "owner")).orderBy(operators.id).for("update");
    const [row] = await tx.select().from(operators).where(eq(operators.id, operator.id)).for("update");
    if (!row || row.userId !== operator.userId) throw new AppError("resource_not_found", "No operator with this id.");
    if (row.role === "owner" && owners.length <= 1) {
      throw new AppError("forbidden", "The last owner cannot be removed; make another operator an owner first.");
    }
    await deleteUser(tx, environment.id, row.userId, actor);
    await tx.delete(operators).where(eq(operators.id, row.id));
    await recordEvent(tx, { environmentId: environment.id, type: "operator.removed", actor, subjectId: row.userId, data: {} });
  });
}
