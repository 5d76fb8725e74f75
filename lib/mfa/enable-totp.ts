import type { Database } from "@/db/client";
import { recordEvent, type Actor } from "../audit/record-event";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import type { UserRow } from "../users/serialize";
import { sendMfaNotice } from "./mfa-notices";
import { replaceRecoveryCodes } from "./recovery-codes";
import { confirmTotpFactor, type TotpFactorRow } from "./totp-factors";

/**
 * Turns MFA on with a pending authenticator app whose first code was just checked:
 * confirms the factor (spending that code's step), makes the ten recovery codes,
 * records the event and notifies the owner, all in the caller's transaction, with
 * `owner` the user row it locked. Both ways of enrolling end here: from the account
 * (/users/me/mfa/totp/confirm) and during a sign-in that an environment requiring
 * MFA holds back (/auth/mfa/enroll/confirm). Returns the codes, shown once.
 */
export async function enableTotp(
  tx: Database,
  environment: EnvironmentContext,
  owner: UserRow,
  pending: { factor: TotpFactorRow; step: number },
  actor: Actor,
): Promise<string[]> {
  // A restarted enrollment (a new QR code) or a concurrent confirmation got there first.
  if (!(await confirmTotpFactor(tx, pending.factor, pending.step))) throw invalidCode();
  const recoveryCodes = await replaceRecoveryCodes(tx, environment.id, owner.id);
  await recordEvent(tx, { environmentId: environment.id, type: "user.mfa_enabled", actor, subjectId: owner.id });
  await sendMfaNotice(tx, environment, owner, "mfa_enabled");
  return recoveryCodes;
}
