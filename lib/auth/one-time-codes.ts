import { createHmac, randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { oneTimeCodes } from "@/db/schema";
import { derivedKey } from "../crypto/master-key";
import { randomToken, sha256 } from "../crypto/tokens";
import { AppError } from "../errors";

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)["purpose"];
export type OneTimeCodeRow = typeof oneTimeCodes.$inferSelect;

/** Wrong guesses a code survives; the next one kills it, even if it is right. */
export const MAX_CODE_ATTEMPTS = 5;
export const CODE_LIFETIME_MINUTES = 10;

export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * A 6-digit code has only a million values, so a plain hash would fall to a table
 * in seconds if the database leaked: codes are HMACed under a key derived from the
 * master secret, bound to their row's token.
 */
function codeHash(tokenHash: string, code: string): string {
  return createHmac("sha256", derivedKey("code-hmac/v1")).update(`${tokenHash}:${code}`).digest("hex");
}

export function invalidCode(): AppError {
  return new AppError("invalid_code", "The code is wrong or has expired.");
}

/** Stores a new one-time secret and returns its clear token (and code) for the email or the client. */
export async function issueCode(
  db: Database,
  input: {
    environmentId: string;
    purpose: CodePurpose;
    email: string;
    userId?: string | null;
    payload?: Record<string, unknown>;
    lifetimeMinutes?: number;
    withCode: boolean;
  },
): Promise<{ id: string; token: string; code: string | null; expiresAt: Date }> {
  const token = randomToken(32);
  const tokenHash = sha256(token);
  const code = input.withCode ? generateCode() : null;
  const [row] = await db
    .insert(oneTimeCodes)
    .values({
      environmentId: input.environmentId,
      purpose: input.purpose,
      tokenHash,
      codeHash: code ? codeHash(tokenHash, code) : null,
      email: input.email,
      userId: input.userId ?? null,
      payload: input.payload ?? {},
      expiresAt: new Date(Date.now() + (input.lifetimeMinutes ?? CODE_LIFETIME_MINUTES) * 60_000),
    })
    .returning({ id: oneTimeCodes.id, expiresAt: oneTimeCodes.expiresAt });
  if (!row) throw new Error("code insert returned no row");
  return { id: row.id, token, code, expiresAt: row.expiresAt };
}

/**
 * A live (unconsumed, unexpired) row of this environment and purpose, by its clear
 * token. The statement names the unique token hash alone and the other conditions
 * are checked on the one row it returns: given the environment and purpose too, the
 * planner may pick the (environment, purpose, email) index when its statistics are
 * stale (an environment that just started issuing codes) and filter every code of
 * the environment, a millisecond per thousand codes on every sign-in step.
 */
export async function findLiveCode(db: Database, environmentId: string, purpose: CodePurpose, token: string) {
  const byTokenHash = preparedStatement(db, "one_time_code_by_token_hash", (d) =>
    d
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.tokenHash, sql.placeholder("tokenHash")))
      .limit(1)
      .prepare("one_time_code_by_token_hash"),
  );
  const [row] = await byTokenHash.execute({ tokenHash: sha256(token) });
  if (!row || row.environmentId !== environmentId || row.purpose !== purpose) return null;
  return row.consumedAt === null && row.expiresAt.getTime() > Date.now() ? row : null;
}

/** The unconsumed, unexpired rows of one purpose for one address. */
function liveCodesForEmail(environmentId: string, purpose: CodePurpose, email: string) {
  return and(
    eq(oneTimeCodes.environmentId, environmentId),
    eq(oneTimeCodes.purpose, purpose),
    eq(oneTimeCodes.email, email),
    isNull(oneTimeCodes.consumedAt),
    gt(oneTimeCodes.expiresAt, new Date()),
  );
}

/** The newest live row for an email, for flows keyed by address (password reset). */
export async function findLatestLiveCodeForEmail(db: Database, environmentId: string, purpose: CodePurpose, email: string) {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(liveCodesForEmail(environmentId, purpose, email))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Ends every live row of a purpose for an address, so only the newest flow can be
 * completed: each extra pending token would be a fresh set of guesses at a code.
 */
export async function cancelLiveCodes(db: Database, environmentId: string, purpose: CodePurpose, email: string): Promise<void> {
  await db.update(oneTimeCodes).set({ consumedAt: new Date() }).where(liveCodesForEmail(environmentId, purpose, email));
}

/** Whether a row has used up its wrong guesses: no code, even a resent one, will consume it. */
export function codeExhausted(row: Pick<OneTimeCodeRow, "failedAttempts">): boolean {
  return row.failedAttempts >= MAX_CODE_ATTEMPTS;
}

/**
 * Replaces a row's code (resend): the old code dies and the lifetime restarts. The
 * attempt counter carries on: resetting it would turn each resend into 5 more guesses.
 */
export async function reissueCode(db: Database, row: OneTimeCodeRow): Promise<string> {
  const code = generateCode();
  await db
    .update(oneTimeCodes)
    .set({
      codeHash: codeHash(row.tokenHash, code),
      sendCount: sql`${oneTimeCodes.sendCount} + 1`,
      lastSentAt: new Date(),
      expiresAt: new Date(Date.now() + CODE_LIFETIME_MINUTES * 60_000),
    })
    .where(eq(oneTimeCodes.id, row.id));
  return code;
}

/**
 * Consumes a code with one conditional UPDATE, so of any number of concurrent
 * redemptions exactly one wins. Returns null when the code is wrong, used, expired
 * or dead; the caller then records the failure with `recordFailedAttempt` outside
 * its transaction, so the count survives the rollback.
 */
export async function consumeCode(
  db: Database,
  row: Pick<OneTimeCodeRow, "id" | "tokenHash">,
  code: string | null,
): Promise<OneTimeCodeRow | null> {
  const [consumed] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(oneTimeCodes.id, row.id),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, new Date()),
        lt(oneTimeCodes.failedAttempts, MAX_CODE_ATTEMPTS),
        code === null ? undefined : eq(oneTimeCodes.codeHash, codeHash(row.tokenHash, code)),
      ),
    )
    .returning();
  return consumed ?? null;
}

/**
 * Spends a one-time token that needs no code (a session ticket, an impersonation
 * token) of this environment and purpose, by its clear value, with one conditional
 * UPDATE: of any number of concurrent redemptions exactly one gets the row back; the
 * others, and unknown, expired, used or foreign tokens, get null. Call it in the
 * transaction that acts on it, so the token is spent exactly when that commits.
 */
export async function spendToken(db: Database, environmentId: string, purpose: CodePurpose, token: string) {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(oneTimeCodes.tokenHash, sha256(token)),
        eq(oneTimeCodes.environmentId, environmentId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: oneTimeCodes.id, userId: oneTimeCodes.userId, payload: oneTimeCodes.payload });
  return row ?? null;
}

/** Counts a wrong guess; after MAX_CODE_ATTEMPTS of them even the right code fails. */
export async function recordFailedAttempt(db: Database, row: Pick<OneTimeCodeRow, "id">): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumedAt)));
}
