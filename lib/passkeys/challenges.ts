import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { decodeClientDataJSON } from "@simplewebauthn/server/helpers";
import type { Database } from "@/db/client";
import { webauthnChallenges } from "@/db/schema";
import { sha256 } from "../crypto/tokens";

/** A challenge lives as long as its ceremony may take (the options' `timeout`). */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export type ChallengePurpose = (typeof webauthnChallenges.$inferInsert)["purpose"];

/**
 * What a challenge was issued for: the ceremony, the environment, and the user when
 * one is known (null only for a discoverable sign-in). A response is accepted only
 * for a challenge issued for the same binding, so a challenge handed out for one
 * user's second factor cannot finish another user's registration or a sign-in.
 */
export interface ChallengeBinding {
  environmentId: string;
  purpose: ChallengePurpose;
  userId: string | null;
}

/**
 * Remembers a challenge just put into a ceremony's options. Only its SHA-256 is
 * stored: the challenge has 256 bits of entropy (the library's default), so a copy of
 * the table gives nothing to answer with.
 */
export async function storeChallenge(db: Database, binding: ChallengeBinding, challenge: string): Promise<void> {
  await db.insert(webauthnChallenges).values({
    environmentId: binding.environmentId,
    purpose: binding.purpose,
    userId: binding.userId,
    challengeHash: sha256(challenge),
    expiresAt: new Date(Date.now() + CHALLENGE_LIFETIME_MS),
  });
}

/**
 * Spends the challenge a response signed, with one conditional UPDATE: it must be
 * live (unspent, unexpired) and issued for this binding. Of concurrent submissions
 * (a replayed response) exactly one wins. Call it in the transaction that applies
 * the ceremony's effect, so the challenge is spent exactly when the effect happens.
 */
export async function spendChallenge(db: Database, binding: ChallengeBinding, challenge: string): Promise<boolean> {
  const spent = await db
    .update(webauthnChallenges)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(webauthnChallenges.challengeHash, sha256(challenge)),
        eq(webauthnChallenges.environmentId, binding.environmentId),
        eq(webauthnChallenges.purpose, binding.purpose),
        binding.userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, binding.userId),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return spent.length === 1;
}

/** The challenge a response's clientDataJSON claims to answer; null when it names none. */
export function claimedChallenge(clientDataJSON: string): string | null {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === "string" && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}
