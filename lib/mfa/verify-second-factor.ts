import type { Database } from "@/db/client";
import { accountThrottleIdentifier, assertPasswordNotThrottled, countSignInFailure, passwordSucceeded } from "../auth/sign-in";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../http/request-context";
import { enforceIdentifierRateLimit } from "../rate-limit/enforce";
import type { Establishment } from "../sessions/establish-session";
import { completeMfaChallenge } from "./complete-challenge";
import { findMfaChallenge, reserveMfaAttempt } from "./mfa-tokens";
import { codeMethod, spendSecondFactorCode } from "./second-factor-codes";
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
 */
export async function verifySecondFactor(
  db: Database,
  environment: EnvironmentContext,
  input: { mfaToken: string; code: string },
  context: RequestContext,
): Promise<Establishment> {
  const found = await findMfaChallenge(db, environment, input.mfaToken, "second_factor");
  // Per account (the pipeline counted the IP), atomically: guesses sent at once through
  // many tokens of one account cannot all pass a check made before any was counted.
  await enforceIdentifierRateLimit(db, environment, "codeAttempts", `mfa-user:${found.userId}`);
  // The token records the primary address it was issued for: the key sign-in and reverification count under.
  const identifier = accountThrottleIdentifier({ id: found.userId, email: found.row.email || null });
  const streak = await assertPasswordNotThrottled(db, environment, identifier);
  const challenge = await reserveMfaAttempt(db, found);
  try {
    const established = await completeMfaChallenge(db, environment, challenge, codeMethod(input.code), context, async (tx, user) => {
      if (!(await spendSecondFactorCode(tx, user.id, input.code))) throw new WrongCodeError();
    });
    await passwordSucceeded(db, environment, identifier, streak);
    return established;
  } catch (error) {
    if (error instanceof WrongCodeError) await countSignInFailure(db, environment, identifier);
    throw error;
  }
}
