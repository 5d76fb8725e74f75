import type { ResponseEffects } from "../operation/response-effects";
import { toClientUser } from "../users/serialize";
import type { Establishment, SessionGrant } from "./establish-session";
import { actorClaim } from "./impersonator";

/**
 * The answer of every operation that signs someone in (CONTRACT §3), for each
 * outcome of establishSession: a session sets the cookie and returns tokens; a
 * second-factor or enrollment challenge returns its token and sets nothing.
 */
export function respondWithEstablishment(effects: ResponseEffects, result: Establishment, options: { isNative: boolean }) {
  switch (result.kind) {
    case "session":
    case "pending_gates":
      return respondWithSession(effects, result.grant, options);
    case "second_factor_required":
      return { status: "needs_second_factor" as const, mfaToken: result.mfaToken, factors: result.factors };
    case "enrollment_required":
      return { status: "needs_mfa_enrollment" as const, mfaToken: result.mfaToken };
  }
}

/** The answer for a session that exists (ACTIVE, or PENDING on its gates): the cookie, the tokens and the user. */
export function respondWithSession(effects: ResponseEffects, grant: SessionGrant, options: { isNative: boolean }) {
  effects.openSession(grant);
  return {
    accessToken: grant.accessToken?.token ?? null,
    expiresAt: grant.accessToken?.expiresAt ?? null,
    session: { ...grant.state, actor: actorClaim(grant.session) },
    user: toClientUser(grant.user),
    ...(options.isNative ? { sessionToken: grant.token } : {}),
  };
}
