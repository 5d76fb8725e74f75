import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { recoveryCodes, totpFactors } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { accountThrottleIdentifier, assertPasswordNotThrottled, countSignInFailure } from "../auth/sign-in";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import { getLiveUserOrThrow } from "../users/get-user";
import { sendMfaNotice } from "./mfa-notices";
import { mfaStatusOf } from "./mfa-status";
import { mfaNotEnabled } from "./regenerate-recovery-codes";
import { spendSecondFactorCode } from "./second-factor-codes";
import { readUserFactors } from "./user-factors";
import { WrongCodeError } from "./wrong-code";

/**
 * Turns MFA off (DELETE /users/me/mfa): removes the authenticator app and the
 * recovery codes. Besides a recent sign-in it takes a current code (app or
 * recovery), so a session left open is not enough to strip the second factor;
 * wrong codes count toward the account's sign-in throttle. Where the environment
 * requires MFA, a user whose only factor is the app keeps it (403 mfa_required).
 */
export async function disableMfa(db: Database, environment: EnvironmentContext, current: ActiveSession, code: string, actor: Actor) {
  const identifier = accountThrottleIdentifier(current.user);
  await assertPasswordNotThrottled(db, environment, identifier);
  try {
    return await db.transaction(async (tx) => {
      const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
      const factors = await readUserFactors(tx, owner.id);
      if (!factors.totp) throw mfaNotEnabled();
      if (environment.settings.mfa.required && factors.passkeys === 0) {
        throw new AppError("mfa_required", "This environment requires two-step verification: add a passkey before turning the authenticator app off.");
      }
      if (!(await spendSecondFactorCode(tx, owner.id, code))) throw new WrongCodeError();
      await tx.delete(totpFactors).where(eq(totpFactors.userId, owner.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, owner.id));
      await recordEvent(tx, { environmentId: environment.id, type: "user.mfa_disabled", actor, subjectId: owner.id });
      await sendMfaNotice(tx, environment, owner, "mfa_disabled");
      return mfaStatusOf(environment, { ...factors, totp: false, recoveryCodesLeft: 0 });
    });
  } catch (error) {
    // Counted after the rollback, so the failure survives it.
    if (error instanceof WrongCodeError) await countSignInFailure(db, environment, identifier);
    throw error;
  }
}
