import type { Database } from "@/db/client";
import type { Actor } from "../audit/record-event";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import type { ActiveSession } from "../sessions/resolve-session";
import { getLiveUserOrThrow } from "../users/get-user";
import { enableTotp } from "./enable-totp";
import { beginTotpEnrollment, matchPendingTotp } from "./totp-factors";

/** Starts enrolling an authenticator app from the account (POST /users/me/mfa/totp). */
export function startTotpEnrollment(db: Database, environment: EnvironmentContext, current: ActiveSession) {
  return beginTotpEnrollment(db, environment, current.user);
}

/**
 * Confirms the app with its first code and turns MFA on (POST /users/me/mfa/totp/confirm).
 * The code is checked before the transaction; the transaction locks the user,
 * spends the code's step, makes the recovery codes and sends the notice.
 */
export async function confirmTotpEnrollment(db: Database, environment: EnvironmentContext, current: ActiveSession, code: string, actor: Actor) {
  const pending = await matchPendingTotp(db, current.user.id, code);
  if (!pending) throw invalidCode();
  return db.transaction(async (tx) => {
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    return { recoveryCodes: await enableTotp(tx, environment, owner, pending, actor) };
  });
}
