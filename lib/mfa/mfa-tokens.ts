import { and, eq, getTableColumns, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { oneTimeCodes, users } from "@/db/schema";
import { sha256 } from "../crypto/tokens";
import type { JsonObject } from "../json/deep-merge";
import type { EnvironmentContext } from "../environments/context";
import type { PendingPasswordReset } from "../auth/apply-password-reset";
import { codeExhausted, findLiveCode, invalidCode, issueCode, MAX_CODE_ATTEMPTS, recordFailedAttempt, type OneTimeCodeRow } from "../auth/one-time-codes";
import { AUTH_METHODS, type AuthMethod } from "../sessions/establish-session";
import { generationOf, issuedAtCurrentGeneration } from "../sessions/sign-in-generation";
import type { UserRow } from "../users/serialize";
import type { ConfirmedTotp } from "./totp-factors";

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

/**
 * Stores a new challenge (inside the sign-in's transaction when it has one) and
 * returns its clear token. `passwordReset` is a reset held back until the challenge
 * is completed (lib/auth/apply-password-reset.ts).
 */
export async function issueMfaToken(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  challenge: { kind: MfaChallenge["kind"]; methods: AuthMethod[]; passwordReset?: PendingPasswordReset },
): Promise<string> {
  const { token } = await issueCode(db, {
    environmentId: environment.id,
    purpose: "mfa_challenge",
    // Addresses key the email-code caps; a challenge is found by its token only.
    email: user.email ?? "",
    userId: user.id,
    payload: { ...challenge, ...generationOf(user) },
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
 * Redeems the challenge and locks its user, in one statement: the conditional UPDATE
 * spends the token (of concurrent redemptions one wins; the others get 400
 * invalid_code) and the user row comes back locked FOR UPDATE, so a ban or a
 * deletion cannot slip in before the session opens, and a challenge issued before
 * all the user's sessions were revoked (a password change…) is refused. Call it in
 * the transaction that opens the session, so the token is spent exactly when the
 * session exists.
 * The same UPDATE drops a held reset's password hash from the row: the caller applies
 * it from the challenge it already read, and a spent row kept until clean-up must not
 * hold a crackable hash of the account's new password.
 * Undefined when the user is gone.
 */
export async function redeemMfaChallenge(db: Database, challenge: MfaChallenge): Promise<UserRow | undefined> {
  const maxAttempts = challenge.attemptReserved ? MAX_CODE_ATTEMPTS + 1 : MAX_CODE_ATTEMPTS;
  const spent = db.$with("spent").as(
    db
      .update(oneTimeCodes)
      .set({ consumedAt: sql`now()`, payload: sql`${oneTimeCodes.payload} - 'passwordReset'` })
      .where(
        and(
          eq(oneTimeCodes.id, challenge.row.id),
          isNull(oneTimeCodes.consumedAt),
          gt(oneTimeCodes.expiresAt, sql`now()`),
          // An attempt reserved before the check (reserveMfaAttempt) is already in the count.
          lt(oneTimeCodes.failedAttempts, maxAttempts),
        ),
      )
      .returning({ id: oneTimeCodes.id }),
  );
  const [row] = await db
    .with(spent)
    .select({ user: users, spent: sql<boolean>`exists (select 1 from ${spent})` })
    .from(users)
    .where(eq(users.id, challenge.userId))
    .for("update");
  if (!row?.spent) throw invalidCode();
  // A ban revokes every session too, but a banned user is told so (the caller's 403).
  if (row.user.status === "active" && !issuedAtCurrentGeneration(challenge.row.payload, row.user)) throw invalidCode();
  return row.user;
}

/**
 * Finds the live challenge of a token and counts this attempt against it before the
 * code is checked, in one statement (400 invalid_code when the token is unknown,
 * expired, used, of another kind or has no attempt left): counting after a wrong
 * answer would let guesses sent at once all pass the "fewer than 5" check before any
 * was counted. A right code still spends the token; a wrong one needs no further
 * count. The same statement reads the user's confirmed authenticator app, which the
 * code is checked against before any transaction opens.
 *
 * The token is found by its unique hash in a subquery of its own, for the reason
 * `findLiveCode` gives; the environment, purpose and kind are conditions of the update.
 */
export async function reserveMfaAttempt(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  kind: MfaChallenge["kind"],
): Promise<MfaChallenge & { totp: ConfirmedTotp | null }> {
  const reserve = preparedStatement(db, "reserve_mfa_attempt", (d) =>
    d
      .update(oneTimeCodes)
      .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
      .where(
        and(
          eq(oneTimeCodes.id, sql`(select c.id from one_time_codes c where c.token_hash = ${sql.placeholder("tokenHash")})`),
          eq(oneTimeCodes.environmentId, sql.placeholder("environmentId")),
          eq(oneTimeCodes.purpose, "mfa_challenge"),
          sql`${oneTimeCodes.payload}->>'kind' = ${sql.placeholder("kind")}`,
          isNull(oneTimeCodes.consumedAt),
          gt(oneTimeCodes.expiresAt, sql`now()`),
          lt(oneTimeCodes.failedAttempts, MAX_CODE_ATTEMPTS),
        ),
      )
      // Qualified by hand: drizzle names an UPDATE's own columns bare, which inside these subqueries would mean totp_factors'.
      .returning({
        row: getTableColumns(oneTimeCodes),
        totpSecretSealed: sql<string | null>`(select f.secret_sealed from totp_factors f where f.user_id = one_time_codes.user_id and f.confirmed_at is not null)`,
        totpLastUsedStep: sql<string | null>`(select f.last_used_step from totp_factors f where f.user_id = one_time_codes.user_id and f.confirmed_at is not null)`,
      })
      .prepare("reserve_mfa_attempt"),
  );
  const [reserved] = await reserve.execute({ tokenHash: sha256(token), environmentId: environment.id, kind });
  if (!reserved?.row.userId) throw invalidCode();
  const { row, totpSecretSealed, totpLastUsedStep } = reserved;
  return {
    row,
    kind,
    userId: reserved.row.userId,
    methods: parseMethods(row.payload),
    attemptReserved: true,
    totp: totpSecretSealed ? { secretSealed: totpSecretSealed, lastUsedStep: totpLastUsedStep === null ? null : Number(totpLastUsedStep) } : null,
  };
}

/** Counts a wrong code against the token; the fifth kills it. Call outside the failing transaction. */
export async function mfaChallengeFailed(db: Database, challenge: MfaChallenge): Promise<void> {
  await recordFailedAttempt(db, challenge.row);
}
