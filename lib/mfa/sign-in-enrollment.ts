import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import type { Establishment } from "../sessions/establish-session";
import { completeMfaChallenge } from "./complete-challenge";
import { enableTotp } from "./enable-totp";
import { findMfaChallenge, mfaChallengeFailed } from "./mfa-tokens";
import type { TotpProvisioning } from "./totp";
import { beginTotpEnrollment, matchPendingTotp } from "./totp-factors";
import { hasAnyFactor, readUserFactors } from "./user-factors";

/*
 * Enforced enrollment (CONTRACT §3): in an environment with `mfa.required`, a user
 * without a second factor who proves their first one gets an mfaToken of kind
 * `enrollment` instead of a session, and no session exists until an authenticator
 * app is confirmed with it.
 */

/** POST /auth/mfa/enroll: a secret and QR code for the signing-in user; the token stays live for the confirmation. */
export async function startSignInEnrollment(db: Database, environment: EnvironmentContext, mfaToken: string): Promise<TotpProvisioning> {
  const challenge = await findMfaChallenge(db, environment, mfaToken, "enrollment");
  const [user] = await db.select().from(users).where(eq(users.id, challenge.userId)).limit(1);
  if (!user || user.status === "deleted") throw invalidCode();
  return beginTotpEnrollment(db, environment, user);
}

/**
 * POST /auth/mfa/enroll/confirm: the app's first code turns MFA on and opens the
 * session, in one transaction; the recovery codes come back once, with the session.
 * A wrong code counts against the token (the fifth kills it).
 */
export async function confirmSignInEnrollment(
  db: Database,
  environment: EnvironmentContext,
  input: { mfaToken: string; code: string },
  context: RequestContext,
): Promise<{ establishment: Establishment; recoveryCodes: string[] }> {
  const challenge = await findMfaChallenge(db, environment, input.mfaToken, "enrollment");
  const pending = await matchPendingTotp(db, challenge.userId, input.code);
  if (!pending) {
    await mfaChallengeFailed(db, challenge);
    throw invalidCode();
  }
  let recoveryCodes: string[] = [];
  const establishment = await completeMfaChallenge(db, environment, challenge, "otp", context, async (tx, user) => {
    // The token was issued to a user with no factor; one added since (a passkey) is the
    // factor this sign-in owes, and the token no longer stands for the same sign-in.
    if (hasAnyFactor(await readUserFactors(tx, user.id))) throw invalidCode();
    recoveryCodes = await enableTotp(tx, environment, user, pending, { type: "user", id: user.id, requestId: context.requestId });
  });
  return { establishment, recoveryCodes };
}
