import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { deepMerge } from "../json/deep-merge";
import type { ActiveSession } from "../sessions/resolve-session";
import { assertMetadataFits, metadataBagSchema } from "./metadata";
import { LOCALES, personNameSchema } from "./schemas";
import { toClientUser } from "./serialize";

/** What end-users may change about themselves; public and private metadata are server-only. */
export const updateMeBody = z
  .strictObject({
    firstName: personNameSchema.nullable().optional(),
    lastName: personNameSchema.nullable().optional(),
    locale: z.enum(LOCALES).nullable().optional(),
    unsafeMetadata: metadataBagSchema.optional().meta({ description: "Deep-merged; null removes a key; at most 512 bytes after the merge." }),
  })
  .meta({ id: "UpdateMeRequest" });

export async function updateMe(db: Database, current: ActiveSession, input: z.output<typeof updateMeBody>, actor: Actor) {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(users).where(eq(users.id, current.user.id)).for("update");
    if (!locked) throw new Error("signed-in user vanished");
    const changes: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
    if (input.firstName !== undefined) changes.firstName = input.firstName || null;
    if (input.lastName !== undefined) changes.lastName = input.lastName || null;
    if (input.locale !== undefined) changes.locale = input.locale;
    if (input.unsafeMetadata) {
      changes.unsafeMetadata = deepMerge(locked.unsafeMetadata, input.unsafeMetadata);
      assertMetadataFits({ unsafeMetadata: changes.unsafeMetadata });
    }
    const [row] = await tx.update(users).set(changes).where(eq(users.id, locked.id)).returning();
    if (!row) throw new Error("user update returned no row");
    await recordEvent(tx, {
      environmentId: row.environmentId,
      type: "user.profile_updated",
      actor,
      subjectId: row.id,
      data: { fields: Object.keys(input) },
    });
    return toClientUser(row);
  });
}
