import type { Database } from "@/db/client";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { getLiveUserOrThrow } from "../users/get-user";
import type { ServerUser } from "../users/schemas";
import { toServerUser } from "../users/serialize";
import { readUserSummary } from "../users/user-summary";
import { deleteSecondFactors } from "./delete-second-factors";
import { sendMfaNotice } from "./mfa-notices";

/**
 * An operator's reset of a user's second factors (DELETE /api/server/v1/users/{id}/mfa),
 * for a user who lost their phone and codes: every factor goes, every session is
 * revoked (whoever held one may be why), in one transaction with its audit event
 * and a notice to the user: a support desk talked into a reset by someone else is
 * noticed by the owner.
 * The next sign-in asks for nothing beyond the password, or, where the environment
 * requires MFA, for a new enrollment.
 */
export async function resetUserFactors(db: Database, environment: EnvironmentContext, userId: string, actor: Actor): Promise<ServerUser> {
  return db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, environment.id, userId, { forUpdate: true });
    const { passkeys } = await deleteSecondFactors(tx, userId);
    const revokedSessions = await revokeAllUserSessions(tx, { environmentId: environment.id, userId }, actor, "mfa_reset");
    await recordEvent(tx, { environmentId: environment.id, type: "user.mfa_reset", actor, subjectId: userId, data: { revokedSessions, passkeys } });
    await sendMfaNotice(tx, environment, user, "second_factors_reset");
    // No second factor is left; the connected accounts stay.
    return toServerUser(user, await readUserSummary(tx, userId));
  });
}
