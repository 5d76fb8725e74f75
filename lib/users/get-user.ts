import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "../errors";
import { readUserSummary } from "./user-summary";
import type { ServerUser } from "./schemas";
import { toServerUser, type UserRow } from "./serialize";

/**
 * The user with this id in the caller's environment. A user of another environment
 * is refused with 403 environment_mismatch (CONTRACT §4); `forUpdate` locks the row
 * for the rest of the transaction so concurrent writers queue instead of losing updates.
 */
export async function getUserOrThrow(
  db: Database,
  environmentId: string,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow> {
  const query = db.select().from(users).where(eq(users.id, userId)).limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new AppError("resource_not_found", "No user with this id.");
  if (row.environmentId !== environmentId) {
    throw new AppError("environment_mismatch", "The user belongs to a different environment.");
  }
  return row;
}

/** As getUserOrThrow, and refuses users that have been deleted: they can no longer change. */
export async function getLiveUserOrThrow(
  db: Database,
  environmentId: string,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow> {
  const row = await getUserOrThrow(db, environmentId, userId, options);
  if (row.status === "deleted") throw new AppError("resource_not_found", "The user has been deleted.");
  return row;
}

/** The Server API's view of a user (deleted ones included), with the summary of their second factors. */
export async function getServerUserOrThrow(db: Database, environmentId: string, userId: string): Promise<ServerUser> {
  const row = await getUserOrThrow(db, environmentId, userId);
  return toServerUser(row, await readUserSummary(db, row.id));
}
