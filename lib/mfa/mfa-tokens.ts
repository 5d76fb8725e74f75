import type { Database } from "@/db/client";
import type { JsonObject } from "../json/deep-merge";
import type { EnvironmentContext } from "../environments/context";
import { codeExhausted, consumeCode, findLiveCode, invalidCode, issueCode, recordFailedAttempt, reserveAttempt, type OneTimeCodeRow } from "../auth/one-time-codes";
import { AUTH_METHODS, type AuthMethod } from "../sessions/establish-session";
import type { UserRow } from "../users/serialize";

/** An mfaToken lives 5 minutes, is single-use, and dies after 5 wrong codes (one_time_codes' cap). */
export const MFA_TOKEN_LIFETIME_MINUTES = 5;

/**
 * What an mfaToken stands for: a sign-in whose first factor is proven and which
 * owes either a second factor (`second_factor`) or, in an environment that requires
 * MFA, the enrollment of one (`enrollment`). `methods` are the first-factor methods
 * proven, carried into the session's amr when the token is redeemed.
 */
export interface MfaChallenge {
  row: OneTimeCodeRow;
  kind: "second_factor" | "enrollment";
  userId: string;
  methods: AuthMethod[];
  /** Set by `reserveMfaAttempt`: this attempt is already counted against the token. */
  attemptReserved?: boolean;
}

/** Stores a new challenge (inside the sign-in's transaction when it has one) and returns its clear token. */
export async function issueMfaToken(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  challenge: { kind: MfaChallenge["kind"]; methods: AuthMethod[] },
): Promise<string> {
  const { token } = await issueCode(db, {
    environmentId: environment.id,
    purpose: "mfa_challenge",
    // Addresses key the email-code caps; a challenge is found by its token only.
    email: user.email ?? "",
    userId: user.id,
    payload: { kind: challenge.kind, methods: challenge.methods },
    lifetimeMinutes: MFA_TOKEN_LIFETIME_MINUTES,
    withCode: false,
  });
  return token;
}

function parseMethods(payload: JsonObject): AuthMethod[] {
  const methods = Array.isArray(payload.methods) ? payload.methods : [];
  return methods.filter((method): method is AuthMethod => (AUTH_METHODS as readonly unknown[]).includes(method));
}

/**
 * The live challenge of a token, of the expected kind, with wrong codes left; else
 * 400 invalid_code (unknown, expired, used, exhausted and wrong-kind tokens answer alike).
 */
export async function findMfaChallenge(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  kind: MfaChallenge["kind"],
): Promise<MfaChallenge> {
  const row = await findLiveCode(db, environment.id, "mfa_challenge", token);
  if (!row || !row.userId || row.payload.kind !== kind || codeExhausted(row)) throw invalidCode();
  return { row, kind, userId: row.userId, methods: parseMethods(row.payload) };
}

/**
 * Redeems the challenge with one conditional UPDATE: of concurrent redemptions one
 * wins; the others get 400 invalid_code. Call it in the transaction that opens the
 * session, so the token is spent exactly when the session exists.
 */
export async function consumeMfaChallenge(db: Database, challenge: MfaChallenge): Promise<void> {
  if (!(await consumeCode(db, challenge.row, null, { attemptCounted: challenge.attemptReserved }))) throw invalidCode();
}

/**
 * Counts a guessed code against the token before it is checked (400 invalid_code
 * when the token has none left): counting after a wrong answer would let guesses
 * sent at once all pass the "fewer than 5" check before any was counted. A right
 * code still spends the token; a wrong one needs no further count.
 */
export async function reserveMfaAttempt(db: Database, challenge: MfaChallenge): Promise<MfaChallenge> {
  if (!(await reserveAttempt(db, challenge.row))) throw invalidCode();
  return { ...challenge, attemptReserved: true };
}

/** Counts a wrong code against the token; the fifth kills it. Call outside the failing transaction. */
export async function mfaChallengeFailed(db: Database, challenge: MfaChallenge): Promise<void> {
  await recordFailedAttempt(db, challenge.row);
}
