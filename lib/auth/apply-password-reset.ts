import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { linkBase } from "../environments/environment-links";
import type { RequestContext } from "../operation/request-context";
import type { JsonObject } from "../json/deep-merge";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import type { UserRow } from "../users/serialize";
import { invalidCode } from "./one-time-codes";
import { sendPasswordChangedNotices } from "./password-changed-notice";
import { clearSignInFailures, findUserByEmail } from "./sign-in";

/**
 * A password reset whose code was right, not yet applied: the new password's
 * argon2 hash and the address the code proved. A user who owes a second factor
 * (or its enrollment) keeps it with the mfaToken's challenge until that is
 * answered: whoever holds only the mailbox must neither set a password nor sign
 * the owner out.
 */
const pendingPasswordResetSchema = z.object({ passwordHash: z.string().min(1), email: z.string().min(1) });
export type PendingPasswordReset = z.output<typeof pendingPasswordResetSchema>;

/** The reset a challenge's payload holds back, if any. A malformed one fails loud rather than open a session without it. */
export function pendingPasswordResetOf(payload: JsonObject): PendingPasswordReset | null {
  return payload.passwordReset === undefined ? null : pendingPasswordResetSchema.parse(payload.passwordReset);
}

/**
 * The code proved a mailbox the account signs in with: not once the address is no
 * longer the account's (changed by the operator, removed). 400 invalid_code otherwise.
 */
export async function assertResetAddressIsTheirs(db: Database, environmentId: string, reset: PendingPasswordReset, user: UserRow): Promise<void> {
  if ((await findUserByEmail(db, environmentId, reset.email))?.id !== user.id) throw invalidCode();
}

/**
 * Applies a reset, in the transaction that proved its last factor, on the user row
 * it locked: right away when no second factor is owed (resetPassword), else when
 * the challenge holding it is completed (completeMfaChallenge, whatever factor
 * answers it, or the enrollment an environment requiring MFA asks for).
 *
 * Every session is revoked, which moves the sign-in generation on: the caller
 * opens its session on the row returned, and every other challenge still holding
 * a reset of this user (a second reset, begun at the old generation) is dead, so
 * a stale hash can never overwrite this one. The caller has checked the generation
 * already (the code's, or the challenge's when it was redeemed); the address is
 * checked here again, since a held reset applies minutes after it was asked for.
 * The failed sign-ins of the address are forgiven, and the owner is told, at the
 * primary address and the one the code proved.
 */
export async function applyPasswordReset(
  tx: Database,
  environment: EnvironmentContext,
  user: UserRow,
  reset: PendingPasswordReset,
  context: RequestContext,
): Promise<UserRow> {
  await assertResetAddressIsTheirs(tx, environment.id, reset, user);
  const actor = { type: "user", id: user.id, requestId: context.requestId } as const;
  const revokedSessions = await revokeAllUserSessions(tx, { environmentId: environment.id, userId: user.id }, actor, "password_reset");
  // Read back after the revocation: the session opens on the sign-in generation it moved to.
  const [updated] = await tx
    .update(users)
    .set({ passwordHash: reset.passwordHash, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  if (!updated) throw new Error("user update returned no row");
  await recordEvent(tx, { environmentId: environment.id, type: "user.password_reset", actor, subjectId: user.id, data: { revokedSessions } });
  await clearSignInFailures(tx, environment.id, reset.email);
  await sendPasswordChangedNotices(tx, environment, linkBase(environment, context.host), updated, reset.email);
  return updated;
}
