import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import type { ActiveSession } from "../sessions/resolve-session";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { getLiveUserOrThrow } from "../users/get-user";
import { passwordInputSchema } from "../users/schemas";
import { hashPassword, verifyPassword } from "./password-hasher";
import { assertPasswordAllowed } from "./password-policy";
import { linkBase } from "../environments/environment-links";
import { sendPasswordChangedNotices } from "./password-changed-notice";
import { invalidCredentials, proveOwnCredentials } from "./sign-in";

export const passwordStatusSchema = z
  .object({
    hasPassword: z.boolean(),
    revokedSessions: z.int().optional().meta({ description: "After a change: how many other sessions were signed out." }),
  })
  .meta({ id: "PasswordStatus" });

export const changePasswordBody = z
  .strictObject({
    currentPassword: z.string().max(1024).optional().meta({ description: "Required when the user already has a password." }),
    newPassword: passwordInputSchema,
  })
  .meta({ id: "ChangePasswordRequest" });

export function passwordStatus(current: ActiveSession) {
  return { hasPassword: current.user.passwordHash !== null };
}

/**
 * Changes (or first sets) the caller's password. The operation is sensitive (the
 * route checks for a recent sign-in); the current password is required as well
 * when one exists, judged under the account's sign-in throttle; every other
 * session is revoked; the owner gets an email notice at the primary address, as
 * part of the change.
 */
export async function changePassword(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  input: z.output<typeof changePasswordBody>,
  actor: Actor,
) {
  const { user } = current;
  const { passwordHash: currentHash } = user;
  if (currentHash) {
    const { currentPassword } = input;
    if (!currentPassword) throw invalidCredentials();
    // A wrong current password is a guess like one at the sign-in page: it counts toward
    // the account's throttle, and while that holds even the right one waits (429).
    await proveOwnCredentials(db, environment, user, async () => (await verifyPassword(currentHash, currentPassword)).ok);
  }
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.newPassword, "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    // The notice goes first, in the change's transaction, to the primary address as this
    // transaction finds it (locked): no concurrent change of the primary can redirect it,
    // and when it cannot be sent the password stays as it was (503 email_unavailable).
    const owner = await getLiveUserOrThrow(tx, environment.id, user.id, { forUpdate: true });
    await sendPasswordChangedNotices(tx, environment, linkBase(environment, null), owner);
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    const target = { environmentId: environment.id, userId: user.id, exceptSessionId: current.session.id };
    const revokedSessions = await revokeAllUserSessions(tx, target, actor, "password_changed");
    await recordEvent(tx, {
      environmentId: environment.id,
      type: user.passwordHash ? "user.password_changed" : "user.password_set",
      actor,
      subjectId: user.id,
      data: { revokedSessions },
    });
    return { hasPassword: true, revokedSessions };
  });
}
