import { createHmac, randomInt } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { recoveryCodes } from "@/db/schema";
import { derivedKey } from "../crypto/master-key";

export const RECOVERY_CODE_COUNT = 10;

/**
 * Crockford's Base32: no I, L, O or U, so a code read off paper cannot be mistyped
 * into another; 10 characters carry 50 bits, far beyond guessing within the
 * mfaToken's 5 tries and the account's throttle.
 */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CODE_LENGTH = 10;

function randomCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

/** A code as shown to the user: `xxxxx-xxxxx`. */
function displayed(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * A typed code as stored: case, spaces and dashes ignored, and the letters Crockford
 * reads as digits (O as 0, I and L as 1) mapped. Null when it cannot be a code.
 */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input
    .toLowerCase()
    .replace(/[\s-]+/g, "")
    .replace(/o/g, "0")
    .replace(/[il]/g, "1");
  return code.length === CODE_LENGTH && [...code].every((char) => ALPHABET.includes(char)) ? code : null;
}

/**
 * Keyed hash of a normalised code, bound to its user: a leaked table cannot be
 * checked against guesses without the master secret, and equal codes of two users
 * hash differently.
 */
function recoveryCodeHash(userId: string, normalized: string): string {
  return createHmac("sha256", derivedKey("recovery-code-hmac/v1")).update(`${userId}:${normalized}`).digest("hex");
}

/**
 * Replaces the user's recovery codes with ten new ones and returns them in clear,
 * for the one time they are shown. Call it in the transaction of the change that
 * asks for them (turning MFA on, regenerating), so the old set dies exactly when
 * the new one exists.
 */
export async function replaceRecoveryCodes(db: Database, environmentId: string, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, randomCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ environmentId, userId, codeHash: recoveryCodeHash(userId, code) })));
  return codes.map(displayed);
}

/** Spends one recovery code with one conditional UPDATE: of concurrent uses of a code exactly one wins. */
export async function spendRecoveryCode(db: Database, userId: string, input: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(input);
  if (!normalized) return false;
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, recoveryCodeHash(userId, normalized)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return spent.length === 1;
}
