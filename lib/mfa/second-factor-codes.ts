import type { Database } from "@/db/client";
import { spendRecoveryCode } from "./recovery-codes";
import { isTotpCode } from "./totp";
import { spendTotpCode } from "./totp-factors";

/** What a typed second-factor code proves, by its shape: 6 digits are an authenticator code, anything else a recovery code. */
export function codeMethod(code: string): "otp" | "recovery" {
  return isTotpCode(code) ? "otp" : "recovery";
}

/**
 * Spends a code of the user's second factor (an authenticator code or a recovery
 * code) with one conditional UPDATE, so a code wins once however many requests
 * carry it. False for a wrong, used or replayed code, and for a user without the
 * factor. Call it in the transaction that acts on the proof.
 */
export async function spendSecondFactorCode(db: Database, userId: string, code: string): Promise<boolean> {
  return codeMethod(code) === "otp" ? spendTotpCode(db, userId, code) : spendRecoveryCode(db, userId, code);
}
