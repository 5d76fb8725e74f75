import type { Database } from "@/db/client";
import { invalidCode } from "../auth/one-time-codes";
import { invalidCredentials, signIn } from "../auth/sign-in";
import type { EnvironmentContext } from "../environments/context";
import { verifyMfaOperation } from "../mfa/operations";
import { verifyMfaBody } from "../mfa/schemas";
import { dueSecondFactors, readUserFactors } from "../mfa/user-factors";
import { verifySecondFactor } from "../mfa/verify-second-factor";
import type { OperatorIdentity } from "../operation/caller";
import type { RateLimitRule } from "../operation/operation";
import type { RequestContext } from "../operation/request-context";
import { passkeySecondFactorOperation, passkeySecondFactorOptionsOperation } from "../passkeys/operations";
import { mfaTokenBody, passkeySecondFactorBody } from "../passkeys/schemas";
import { passkeySecondFactor, passkeySecondFactorOptions } from "../passkeys/second-factor";
import { enforceRateLimit } from "../rate-limit/enforce";
import type { Establishment, SecondFactor } from "../sessions/establish-session";
import { revokeSession } from "../sessions/revoke-sessions";
import { internalEnvironment } from "./internal-environment";
import { operatorOfUser } from "./operators";

/** A signed-in operator and the session of theirs in the internal environment that the dashboard's cookie names. */
export interface OperatorSignIn {
  operator: OperatorIdentity;
  sessionId: string;
}

/**
 * Where proving a first factor (the password, staff SSO) leaves an operator: signed
 * in, or, for an operator who holds a second factor, owing it. The mfaToken is the
 * end-users' own challenge (lib/mfa/mfa-tokens.ts: 5 minutes, single use, 5 wrong
 * answers): no session exists until completeOperatorSignIn or
 * completeOperatorSignInWithPasskey redeems it with the factor.
 */
export type OperatorSignInStep =
  | { kind: "signed_in"; signedIn: OperatorSignIn }
  | { kind: "second_factor_required"; mfaToken: string; factors: SecondFactor[] };

/**
 * Email + password sign-in of an operator: the users' own sign-in (lib/auth/sign-in.ts)
 * on the internal environment, so argon2id, the per-IP and per-address rate limits,
 * the failure streak and the one answer for a wrong password and an unknown address
 * (after the same argon2 work) are the very rules end-users get. An operator without
 * a second factor gets a session there, which carries the operators' lifetime and
 * idle limit and which sign-out revokes; one with a factor gets its challenge.
 */
export async function signInOperator(db: Database, input: { email: string; password: string }, context: RequestContext): Promise<OperatorSignInStep> {
  const environment = await internalEnvironment(db);
  return operatorSignInStep(db, environment, await signIn(db, environment, input, context), context);
}

/**
 * The second step of a sign-in that owes a factor, with an authenticator code or a
 * recovery code: the end-users' POST /auth/mfa/verify (its schema, its per-IP limit
 * and lib/mfa's verification: the per-account limit, the account's failure streak,
 * each code and each TOTP step accepted once), on the internal environment. The
 * mfaToken is spent in the transaction that opens the session; without the right
 * code there is no session. A malformed token or code is a wrong one.
 */
export async function completeOperatorSignIn(db: Database, input: { mfaToken: string; code: string }, context: RequestContext): Promise<OperatorSignIn> {
  const environment = await internalEnvironment(db);
  const body = verifyMfaBody.safeParse(input);
  if (!body.success) throw invalidCode();
  await enforceDeclaredLimits(db, environment, verifyMfaOperation.rateLimits, context);
  return signedInAfterFactor(await operatorSignInStep(db, environment, await verifySecondFactor(db, environment, body.data, context), context));
}

/**
 * The passkey ceremony's options for the second step: the challenged operator's
 * passkeys, for the relying party of the dashboard (the internal environment has no
 * frontend host: its RP ID is PUBLIC_URL's host, lib/passkeys/relying-party.ts).
 */
export async function operatorPasskeyOptions(db: Database, mfaToken: string, context: RequestContext) {
  const environment = await internalEnvironment(db);
  if (!mfaTokenBody.safeParse({ mfaToken }).success) throw invalidCode();
  await enforceDeclaredLimits(db, environment, passkeySecondFactorOptionsOperation.rateLimits, context);
  return passkeySecondFactorOptions(db, environment, mfaToken, context);
}

/**
 * The second step with a passkey: lib/passkeys' second-factor assertion (the passkey
 * must be the challenged operator's; the challenge, its counter and the mfaToken are
 * spent with the session's opening; every failure counts against the token).
 */
export async function completeOperatorSignInWithPasskey(
  db: Database,
  input: { mfaToken: string; response: unknown },
  context: RequestContext,
): Promise<OperatorSignIn> {
  const environment = await internalEnvironment(db);
  const body = passkeySecondFactorBody.safeParse(input);
  if (!body.success) throw invalidCode();
  await enforceDeclaredLimits(db, environment, passkeySecondFactorOperation.rateLimits, context);
  return signedInAfterFactor(await operatorSignInStep(db, environment, await passkeySecondFactor(db, environment, body.data, context), context));
}

/**
 * The per-IP limits the Client API operation of the same step declares (the route
 * kit enforces them before its handler), read from the operation itself so the two
 * cannot drift apart.
 */
async function enforceDeclaredLimits(db: Database, environment: EnvironmentContext, rules: RateLimitRule[] | undefined, context: RequestContext) {
  for (const rule of rules ?? []) await enforceRateLimit(db, environment, rule.action, context);
}

/** Whether the operator's sign-ins must answer a second factor: the internal environment's own rule (dueSecondFactors). */
export async function operatorHasSecondFactor(db: Database, environment: EnvironmentContext, userId: string): Promise<boolean> {
  return dueSecondFactors(environment, await readUserFactors(db, userId)).length > 0;
}

/**
 * The operator behind what a first or second factor led to. A session of a user of
 * the internal environment who is no operator (a removal half done by hand) is
 * revoked at once and refused. The internal environment asks for no consent, its
 * addresses are verified and it requires no MFA of everyone: no gate or enrollment
 * can be owed.
 */
export async function operatorSignInStep(db: Database, environment: EnvironmentContext, established: Establishment, context: RequestContext): Promise<OperatorSignInStep> {
  switch (established.kind) {
    case "session": {
      const { session, user } = established.grant;
      const operator = await operatorOfUser(db, user.id);
      if (!operator || !user.email) {
        await db.transaction((tx) =>
          revokeSession(tx, { environmentId: environment.id, userId: user.id, sessionId: session.id }, { type: "user", id: user.id, requestId: context.requestId }, "revoke"),
        );
        throw invalidCredentials();
      }
      const hasSecondFactor = await operatorHasSecondFactor(db, environment, user.id);
      return { kind: "signed_in", signedIn: { operator: { id: operator.id, email: user.email, role: operator.role, hasSecondFactor, sessionProvedSecondFactor: session.aal >= 2 }, sessionId: session.id } };
    }
    case "second_factor_required":
      return { kind: "second_factor_required", mfaToken: established.mfaToken, factors: established.factors };
    case "pending_gates":
    case "enrollment_required":
      throw new Error(`operator sign-in ended in ${established.kind}, which the internal environment never asks for`);
  }
}

/** A completed second step opens a session: a proof that holds a second factor owes none. */
function signedInAfterFactor(step: OperatorSignInStep): OperatorSignIn {
  if (step.kind !== "signed_in") throw new Error("a proven second factor left the operator's sign-in owing another");
  return step.signedIn;
}
