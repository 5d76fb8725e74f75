import type { Database } from "@/db/client";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import { getLiveUserOrThrow } from "../users/get-user";
import { sendMfaNotice } from "./mfa-notices";
import { replaceRecoveryCodes } from "./recovery-codes";
import { readUserFactors } from "./user-factors";

export function mfaNotEnabled(): AppError {
  return new AppError("mfa_not_enabled", "Two-step verification is not on: set up an authenticator app first.");
}

/**
 * Replaces the recovery codes with ten new ones: the old ones die in the same
 * transaction, and the owner is told at the primary address (503 email_unavailable
 * changes nothing). Only with an authenticator app on: recovery codes stand in for it.
 */
export async function regenerateRecoveryCodes(db: Database, environment: EnvironmentContext, current: ActiveSession, actor: Actor) {
  return db.transaction(async (tx) => {
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    if (!(await readUserFactors(tx, owner.id)).totp) throw mfaNotEnabled();
    const recoveryCodes = await replaceRecoveryCodes(tx, environment.id, owner.id);
    await recordEvent(tx, { environmentId: environment.id, type: "user.recovery_codes_regenerated", actor, subjectId: owner.id });
    await sendMfaNotice(tx, environment, owner, "recovery_codes_regenerated");
    return { recoveryCodes };
  });
}
