import { serialize } from "cookie";
import { mfaFlowSetCookie } from "../hosted/flow-cookies";
import type { ResponseEffects } from "../operation/response-effects";
import { clearedSessionCookies, secureCookies, sessionCookies } from "../sessions/cookies";

/** The Set-Cookie values of the flow cookies: HttpOnly, SameSite=Lax, Secure on https, as the session cookie. */
export function flowSetCookies(effects: ResponseEffects, request: Request): string[] {
  return effects.flowCookies.map((cookie) =>
    serialize(cookie.name, cookie.value, {
      httpOnly: true,
      sameSite: "lax",
      secure: cookie.secure === true || secureCookies(request),
      path: cookie.path,
      maxAge: cookie.maxAgeSeconds,
    }),
  );
}

/**
 * The Set-Cookie values that carry out the session effects, with the attributes
 * lib/sessions/cookies.ts (and lib/hosted/flow-cookies.ts for gh_mfa) decides.
 */
export function sessionSetCookies(effects: ResponseEffects, request: Request): string[] {
  const flow = effects.mfaFlow ? [mfaFlowSetCookie(request, effects.mfaFlow)] : [];
  const change = effects.session;
  if (!change) return flow;
  if (change.kind === "clear") return [...flow, ...clearedSessionCookies(request)];
  const { session, token } = change.grant;
  return [...flow, ...sessionCookies(request, token, session.expiresAt, session.lastActiveAt)];
}
