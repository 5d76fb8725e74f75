import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type AuthMethod, type Establishment } from "../sessions/establish-session";
import { applyPasswordReset, pendingPasswordResetOf } from "../auth/apply-password-reset";
import { invalidCode } from "../auth/one-time-codes";
import type { UserRow } from "../users/serialize";
import { redeemMfaChallenge, type MfaChallenge } from "./mfa-tokens";

/**
 * Ends a sign-in's challenge once its second factor (or a freshly enrolled one) is
 * proven: spends the mfaToken and opens the session in one transaction, with the
 * first factor's methods and this one in amr. Every factor (authenticator code,
 * recovery code, passkey) finishes here, so the rules are the same for each: the
 * user must still be able to sign in, and the token is spent exactly once.
 *
 * `prove` runs inside the transaction, after the user is locked and found able to
 * sign in: it spends the factor itself (a TOTP step, a recovery code, a passkey
 * counter), so a session that fails to open leaves the factor unspent, and a
 * banned user spends nothing. It gets the locked user row, for a notice to the
 * primary address that transaction found.
 *
 * A password reset held with the challenge (an MFA user's reset) is applied here,
 * after the factor is proven and before the session opens: the same transaction
 * that spends the token, so of concurrent completions one applies it, on a user
 * still at the sign-in generation the challenge was issued at.
 */
export async function completeMfaChallenge(
  db: Database,
  environment: EnvironmentContext,
  challenge: MfaChallenge,
  method: AuthMethod,
  context: RequestContext,
  prove: (tx: Database, user: UserRow) => Promise<void>,
): Promise<Establishment> {
  return db.transaction(async (tx) => {
    const user = await redeemMfaChallenge(tx, challenge);
    if (!user || user.environmentId !== environment.id || user.status === "deleted") throw invalidCode();
    if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
    await prove(tx, user);
    const reset = pendingPasswordResetOf(challenge.row.payload);
    const signedIn = reset ? await applyPasswordReset(tx, environment, user, reset, context) : user;
    return establishSession(tx, environment, signedIn, { methods: [...challenge.methods, method] }, context);
  });
}
