import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { refusedDuringImpersonation, type Operation, type SessionLevel } from "../operation/operation";
import { sessionState, type GateKey, type SessionState } from "./gates";
import { impersonationForbidden, impersonatorOf } from "./impersonator";
import { assertRecentlyVerified } from "./reverification";
import type { ActiveSession } from "./resolve-session";

/**
 * The one check of a session against an operation's auth level, for the Client
 * API and the hosted pages alike. A PENDING session (a gate still open: consent,
 * email verification, later second-factor enrollment) exists only to clear its
 * gate: anything else answers 403 session_pending naming the gate, so no path
 * reaches an active session's powers past a gate. An operation that clears a
 * gate (`clearsGate`) is open to a session held by exactly that gate. An
 * impersonation session is refused what only the user may do (refusedDuringImpersonation)
 * before anything else: no reverification can open it, so asking for one would mislead.
 */
export async function authorizeSession(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  level: SessionLevel,
  declared: Pick<Operation, "clearsGate" | "impersonation"> = {},
): Promise<SessionState> {
  if (!current) throw new AppError("unauthorized", "Sign in first: no valid session for this environment.");
  if (impersonatorOf(current.session) && refusedDuringImpersonation({ auth: level, impersonation: declared.impersonation })) {
    throw impersonationForbidden();
  }
  const state = await sessionState(db, environment, current.user, current.session.id);
  const { clearsGate } = declared;
  const mayClear = clearsGate !== undefined && state.gates.some((gate) => gate.key === clearsGate);
  if (level !== "pendingSession" && state.status === "PENDING" && !mayClear) throw sessionPending(state);
  if (level === "sensitiveSession") assertRecentlyVerified(environment, current);
  return state;
}

/** The gate a session_pending error (sessionPending) names; null for any other error. */
export function pendingGate(error: unknown): GateKey | null {
  if (!(error instanceof AppError) || error.code !== "session_pending") return null;
  const gate = error.properties?.currentGate as SessionState["currentGate"] | null | undefined;
  return gate?.key ?? null;
}

export function sessionPending(state: SessionState): AppError {
  const gate = state.currentGate ?? state.gates[0];
  return new AppError("session_pending", `The session is pending: clear ${gate?.key ?? "its gate"} first.`, {
    properties: { currentGate: gate ?? null },
  });
}
