import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { totpFactors } from "@/db/schema";
import { seal, unseal } from "../crypto/secret-box";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { UserRow } from "../users/serialize";
import { matchTotpStep, newTotpSecret, totpProvisioning, type TotpProvisioning } from "./totp";

export type TotpFactorRow = typeof totpFactors.$inferSelect;

export function mfaAlreadyEnabled(): AppError {
  return new AppError("mfa_already_enabled", "An authenticator app is already set up; turn two-step verification off first to replace it.");
}

/**
 * Starts (or restarts) enrollment of an authenticator app: a fresh secret, sealed
 * under the master key, in the user's unconfirmed factor row. Starting again
 * replaces a pending secret, so only the QR code shown last works. A confirmed
 * factor is never replaced here: 409 mfa_already_enabled.
 */
export async function beginTotpEnrollment(db: Database, environment: EnvironmentContext, user: UserRow): Promise<TotpProvisioning> {
  const secret = newTotpSecret();
  const secretSealed = await seal(secret);
  const [row] = await db
    .insert(totpFactors)
    .values({ userId: user.id, environmentId: environment.id, secretSealed })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secretSealed, lastUsedStep: null, createdAt: sql`now()` },
      // The conflict target row stays as it is when it is confirmed: nothing is returned.
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  if (!row) throw mfaAlreadyEnabled();
  return totpProvisioning(secret, environment.settings.branding.applicationName, user.email ?? user.id);
}

/**
 * A pending enrollment's factor and the step its code matched; null for a wrong
 * code or when no enrollment was started; 409 mfa_already_enabled when the app is
 * confirmed already.
 */
export async function matchPendingTotp(db: Database, userId: string, code: string): Promise<{ factor: TotpFactorRow; step: number } | null> {
  const [factor] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
  if (!factor) return null;
  if (factor.confirmedAt) throw mfaAlreadyEnabled();
  const step = await matchTotpStep(await unseal(factor.secretSealed), code);
  return step === null ? null : { factor, step };
}

/**
 * Confirms the pending factor whose code was just checked, spending that code's
 * step. The row must still hold the very secret the code was checked against: a
 * concurrent restart of the enrollment (a new QR code) makes this confirm nothing.
 */
export async function confirmTotpFactor(db: Database, factor: TotpFactorRow, step: number): Promise<boolean> {
  const confirmed = await db
    .update(totpFactors)
    .set({ confirmedAt: new Date(), lastUsedStep: step })
    .where(and(eq(totpFactors.userId, factor.userId), isNull(totpFactors.confirmedAt), eq(totpFactors.secretSealed, factor.secretSealed)))
    .returning({ userId: totpFactors.userId });
  return confirmed.length === 1;
}

/** The confirmed authenticator app of a user, as a code is checked against it. */
export interface ConfirmedTotp {
  secretSealed: string;
  lastUsedStep: number | null;
}

/**
 * The step a code of this confirmed factor belongs to, or null for a wrong code and
 * for one of a step at or before the last one spent (it could not be claimed).
 */
export async function matchConfirmedTotp(factor: ConfirmedTotp, code: string): Promise<number | null> {
  return matchTotpStep(await unseal(factor.secretSealed), code, { afterStep: factor.lastUsedStep });
}

/**
 * Spends a time step of the user's confirmed factor, the one whose sealed secret the
 * code was checked against. Each step is accepted once: the conditional UPDATE moves
 * `last_used_step` forward only, so of any number of concurrent requests with the
 * same code exactly one wins, and a code of an earlier step than one already used is
 * refused as well. A factor reset and enrolled anew in between (another secret)
 * claims nothing.
 */
export async function claimTotpStep(db: Database, userId: string, factor: ConfirmedTotp, step: number): Promise<boolean> {
  const claimed = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        isNotNull(totpFactors.confirmedAt),
        eq(totpFactors.secretSealed, factor.secretSealed),
        or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return claimed.length === 1;
}

/** Spends an authenticator code of the user's confirmed factor (`claimTotpStep`); false for a wrong or spent one. */
export async function spendTotpCode(db: Database, userId: string, code: string): Promise<boolean> {
  const [factor] = await db
    .select({ secretSealed: totpFactors.secretSealed, lastUsedStep: totpFactors.lastUsedStep })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  if (!factor) return false;
  const step = await matchConfirmedTotp(factor, code);
  return step !== null && (await claimTotpStep(db, userId, factor, step));
}
