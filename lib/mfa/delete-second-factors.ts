import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oneTimeCodes, passkeys, recoveryCodes, totpFactors, webauthnChallenges } from "@/db/schema";

/**
 * Removes every second factor of a user: the authenticator app, the recovery
 * codes, the passkeys and their pending ceremonies, and ends the user's sign-ins
 * still waiting on a second factor or its enrollment, so nothing begun before
 * finishes after. Returns how many passkeys were removed. Run it in the
 * transaction of the change that asks for it (an operator's reset, a deletion).
 */
export async function deleteSecondFactors(tx: Database, userId: string): Promise<{ passkeys: number }> {
  await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const removed = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
  await tx
    .update(oneTimeCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, "mfa_challenge"), isNull(oneTimeCodes.consumedAt)));
  return { passkeys: removed.length };
}
