import type { Database } from "@/db/client";
import { accountThrottleIdentifier, assertPasswordNotThrottled, countSignInFailure, passwordSucceeded } from "../auth/sign-in";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { enforceIdentifierRateLimit } from "../rate-limit/enforce";
import type { Establishment } from "../sessions/establish-session";
import { completeMfaChallenge } from "./complete-challenge";
import { reserveMfaAttempt } from "./mfa-tokens";
import { spendRecoveryCode } from "./recovery-codes";
import { codeMethod } from "./second-factor-codes";
import { claimTotpStep, matchConfirmedTotp } from "./totp-factors";
import { WrongCodeError } from "./wrong-code";

/**
 * Finishes a sign-in that owes its second factor (POST /auth/mfa/verify) with an
 * authenticator code (6 digits) or a recovery code. The code is spent inside the
 * transaction that spends the mfaToken and opens the session, so each code wins
 * once however many tokens and requests carry it.
 *
 * Every attempt is counted against the token before the code is checked (the
 * fifth is its last), and a wrong code counts against the account's sign-in
 * throttle after the rollback, which this endpoint also obeys, so fresh tokens
 * from fresh password sign-ins bring no fresh guesses.
 *
 * This is half of every MFA sign-in, so its round trips are counted: one statement
 * finds the token, reserves the attempt and reads the authenticator app; a wrong
 * authenticator code is known before any transaction opens; a right one costs the
 * transaction three statements (redeem and lock, claim the step, open the session).
 */
export async function verifySecondFactor(
  db: Database,
  environment: EnvironmentContext,
  input: { mfaToken: string; code: string },
  context: RequestContext,
): Promise<Establishment> {
  const challenge = await reserveMfaAttempt(db, environment, input.mfaToken, "second_factor");
  // Per account (the pipeline counted the IP), atomically: guesses sent at once through
  // many tokens of one account cannot all pass a check made before any was counted.
  await enforceIdentifierRateLimit(db, environment, "codeAttempts", `mfa-user:${challenge.userId}`);
  // The token records the primary address it was issued for: the key sign-in and reverification count under.
  const identifier = accountThrottleIdentifier({ id: challenge.userId, email: challenge.row.email || null });
  const streak = await assertPasswordNotThrottled(db, environment, identifier);
  const method = codeMethod(input.code);
  try {
    const { totp } = challenge;
    const step = method === "otp" && totp ? await matchConfirmedTotp(totp, input.code) : null;
    if (method === "otp" && step === null) throw new WrongCodeError();
    const established = await completeMfaChallenge(db, environment, challenge, method, context, async (tx, user) => {
      const spent = totp && step !== null ? await claimTotpStep(tx, user.id, totp, step) : await spendRecoveryCode(tx, user.id, input.code);
      if (!spent) throw new WrongCodeError();
    });
    await passwordSucceeded(db, environment, identifier, streak);
    return established;
  } catch (error) {
    if (error instanceof WrongCodeError) await countSignInFailure(db, environment, identifier);
    throw error;
  }
}
