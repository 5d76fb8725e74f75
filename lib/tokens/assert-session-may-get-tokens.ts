import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { sessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";

/**
 * A PENDING session (legal consent or email verification still open) exists only
 * to finish sign-up; a token would let the app's back-end treat the user as signed
 * in before they cleared the gate, so it gets none (403 forbidden).
 */
export async function assertSessionMayGetTokens(db: Database, environment: EnvironmentContext, active: ActiveSession): Promise<void> {
  const state = await sessionState(db, environment, active.user, active.session.id);
  if (state.status === "PENDING") {
    const gate = state.currentGate?.key ?? state.gates[0]?.key ?? "a sign-up step";
    throw new AppError("forbidden", `The session is pending (${gate}): finish that step before requesting a token.`);
  }
}
