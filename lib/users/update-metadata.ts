import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { deepMerge } from "../json/deep-merge";
import { getLiveUserOrThrow } from "./get-user";
import { assertMetadataFits, METADATA_BAGS } from "./metadata";
import type { ServerUser, updateMetadataBody } from "./schemas";
import { toServerUser } from "./serialize";
import { readUserSummary } from "./user-summary";

/**
 * Deep-merges each given bag into the stored one and checks the limits on the
 * merged result. The row is locked while merging, so concurrent PATCHes with
 * distinct keys all survive instead of overwriting each other.
 */
export async function updateUserMetadata(
  db: Database,
  environmentId: string,
  userId: string,
  patch: z.output<typeof updateMetadataBody>,
  actor: Actor,
): Promise<ServerUser> {
  return db.transaction(async (tx) => {
    const current = await getLiveUserOrThrow(tx, environmentId, userId, { forUpdate: true });
    const merged: Partial<Record<(typeof METADATA_BAGS)[number], Record<string, unknown>>> = {};
    for (const bag of METADATA_BAGS) {
      const bagPatch = patch[bag];
      if (bagPatch) merged[bag] = deepMerge(current[bag], bagPatch);
    }
    assertMetadataFits(merged);
    const [row] = await tx
      .update(users)
      .set({ ...merged, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new Error("user update returned no row");
    await recordEvent(tx, {
      environmentId,
      type: "user.metadata_updated",
      actor,
      subjectId: userId,
      data: { bags: Object.keys(merged) },
    });
    return toServerUser(row, await readUserSummary(tx, userId));
  });
}
