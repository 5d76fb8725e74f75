import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { hashPassword } from "../auth/password-hasher";
import { assertPasswordAllowed } from "../auth/password-policy";
import type { EnvironmentContext } from "../environments/context";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { assertEmailFree, emailTaken } from "./create-user";
import { getLiveUserOrThrow } from "./get-user";
import type { ServerUser, updateUserBody } from "./schemas";
import { toServerUser } from "./serialize";
import { readUserSummary } from "./user-summary";

/**
 * Updates names, locale, primary email and password. A new email replaces the old
 * primary address (released for re-use) and is trusted as verified; one the user
 * already holds as a secondary address is promoted. Setting a password revokes
 * every session of the user in the same transaction: whoever held the account
 * under the old password is out. The password is hashed before the transaction so
 * the row lock is never held across argon2.
 */
export async function updateUser(
  db: Database,
  environment: EnvironmentContext,
  userId: string,
  input: z.output<typeof updateUserBody>,
  actor: Actor,
): Promise<ServerUser> {
  await getLiveUserOrThrow(db, environment.id, userId);
  if (input.password !== undefined) await assertPasswordAllowed(environment.settings.passwordPolicy, input.password);
  if (input.email) await assertEmailFree(db, environment.id, input.email, userId);
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);

  try {
    return await db.transaction(async (tx) => {
      const current = await getLiveUserOrThrow(tx, environment.id, userId, { forUpdate: true });
      const now = new Date();
      const changes: Partial<typeof users.$inferInsert> = { updatedAt: now };
      if (input.firstName !== undefined) changes.firstName = input.firstName || null;
      if (input.lastName !== undefined) changes.lastName = input.lastName || null;
      if (input.locale !== undefined) changes.locale = input.locale;
      if (passwordHash !== undefined) changes.passwordHash = passwordHash;
      if (input.email && input.email !== current.email) {
        if (current.email) {
          await tx
            .delete(emailAddresses)
            .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.email, current.email)));
        }
        // The user's own secondary address is promoted: inserting it again would hit the unique index (409).
        const [promoted] = await tx
          .update(emailAddresses)
          .set({ verifiedAt: sql`coalesce(${emailAddresses.verifiedAt}, ${now.toISOString()}::timestamptz)` })
          .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.email, input.email)))
          .returning({ verifiedAt: emailAddresses.verifiedAt });
        if (!promoted) await tx.insert(emailAddresses).values({ environmentId: environment.id, userId, email: input.email, verifiedAt: now });
        changes.email = input.email;
        changes.emailVerifiedAt = promoted?.verifiedAt ?? now;
      }
      const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
      if (!row) throw new Error("user update returned no row");
      // A password set by an operator ends every session: whoever held one no longer proves to know it.
      const revokedSessions =
        passwordHash === undefined
          ? undefined
          : await revokeAllUserSessions(tx, { environmentId: environment.id, userId }, actor, "password_set_by_operator");
      const data = { fields: Object.keys(input), ...(revokedSessions === undefined ? {} : { revokedSessions }) };
      await recordEvent(tx, { environmentId: environment.id, type: "user.updated", actor, subjectId: userId, data });
      return toServerUser(row, await readUserSummary(tx, userId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
