import type { Database } from "@/db/client";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { completeMfaChallenge } from "../mfa/complete-challenge";
import { findMfaChallenge, mfaChallengeFailed, type MfaChallenge } from "../mfa/mfa-tokens";
import type { Establishment } from "../sessions/establish-session";
import { acceptAssertion, assertionOptions, verifyAssertion } from "./assertions";
import type { ChallengeBinding } from "./challenges";
import { findPasskeyByCredential, listUserPasskeys } from "./credentials";
import { relyingParty } from "./relying-party";
import type { AuthenticationResponse } from "./schemas";

/** The passkey challenge of a sign-in's second step belongs to the user the mfaToken stands for. */
function secondFactorBinding(environment: EnvironmentContext, challenge: MfaChallenge): ChallengeBinding {
  return { environmentId: environment.id, purpose: "second_factor", userId: challenge.userId };
}

/** Options naming the challenged user's passkeys, for the second step of their sign-in. */
export async function passkeySecondFactorOptions(db: Database, environment: EnvironmentContext, mfaToken: string, context: RequestContext) {
  const challenge = await findMfaChallenge(db, environment, mfaToken, "second_factor");
  const owned = await listUserPasskeys(db, challenge.userId);
  if (owned.length === 0) throw new AppError("invalid_request", "This account has no passkey; answer with another factor.");
  const options = await assertionOptions(db, relyingParty(environment, context.host), secondFactorBinding(environment, challenge), owned, "preferred");
  return { options };
}

/**
 * Answers a sign-in's second-factor challenge with a passkey. The passkey must be
 * the challenged user's; the session opens through completeMfaChallenge, whose
 * transaction spends the mfaToken, the passkey challenge and the counter together.
 * Every failure counts against the mfaToken (5 wrong answers end it), recorded
 * outside the failed transaction so that the count survives its rollback.
 */
export async function passkeySecondFactor(
  db: Database,
  environment: EnvironmentContext,
  input: { mfaToken: string; response: AuthenticationResponse },
  context: RequestContext,
): Promise<Establishment> {
  const challenge = await findMfaChallenge(db, environment, input.mfaToken, "second_factor");
  const passkey = await findPasskeyByCredential(db, environment.id, input.response.id);
  const assertion =
    passkey && passkey.userId === challenge.userId
      ? await verifyAssertion(relyingParty(environment, context.host), passkey, input.response, "preferred")
      : null;
  try {
    if (!assertion) throw invalidCode();
    return await completeMfaChallenge(db, environment, challenge, "webauthn", context, async (tx) => {
      if (!(await acceptAssertion(tx, secondFactorBinding(environment, challenge), assertion))) throw invalidCode();
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_code") await mfaChallengeFailed(db, challenge);
    throw error;
  }
}
