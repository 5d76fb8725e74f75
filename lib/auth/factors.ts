import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import { codeMethod, spendSecondFactorCode } from "../mfa/second-factor-codes";
import { dueSecondFactors, readUserFactors } from "../mfa/user-factors";
import type { FactorProof } from "../sessions/reverification";
import type { AuthMethod } from "../sessions/establish-session";
import type { UserRow } from "../users/serialize";
import { verifyPassword } from "./password-hasher";
import { invalidCredentials, proveOwnCredentials } from "./sign-in";

/**
 * Checks a proof against the user's own factors and names the method it proved.
 * Reverification runs every proof through here, so a recent sign-in means what a
 * sign-in means: the password when the user has one, and with two-step
 * verification on a code as well (an authenticator code or a recovery code, then
 * spent); a password alone never reopens the sensitive window of an MFA user.
 *
 * Both answers are given before either is judged, and any wrong one answers the
 * same 401 invalid_credentials, so the code is no oracle for the password. Every
 * failure counts toward the account's sign-in throttle: a stolen session is no
 * faster an oracle than the sign-in page.
 */
export async function verifyFactor(db: Database, environment: EnvironmentContext, user: UserRow, proof: FactorProof): Promise<AuthMethod> {
  const factors = await readUserFactors(db, user.id);
  const mfaOn = factors.totp;
  // A user whose due second factor is a passkey alone (an environment that requires
  // MFA) proves it with the passkey ceremony; the password alone never suffices.
  if (!mfaOn && dueSecondFactors(environment, factors).length > 0) {
    throw new AppError("invalid_credentials", "Confirm it's you with your passkey (POST /_svc/auth/reverify/passkey): the password alone is not enough here.");
  }
  if (!user.passwordHash && !mfaOn) throw invalidCredentials();
  if (user.passwordHash && proof.password === undefined) throw invalidField("password", "is required");
  if (mfaOn && proof.code === undefined) throw invalidField("code", "is required: two-step verification is on");
  await proveOwnCredentials(db, environment, user, async () => {
    const passwordOk = !user.passwordHash || (await verifyPassword(user.passwordHash, proof.password ?? "")).ok;
    // The code is spent only with the right password: a wrong guess at the password burns no code.
    return passwordOk && (!mfaOn || (await spendSecondFactorCode(db, user.id, proof.code ?? "")));
  });
  return mfaOn ? codeMethod(proof.code ?? "") : "pwd";
}
