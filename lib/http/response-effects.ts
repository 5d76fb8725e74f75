import { serialize } from "cookie";
import { clearedSessionCookies, secureCookies, sessionCookies } from "../sessions/cookies";
import type { Establishment, SessionGrant } from "../sessions/establish-session";
import { toClientUser } from "../users/serialize";

/**
 * What an operation asks of the response besides its body: open or end the
 * session cookie, extra headers. The handler only states the intent; the route kit
 * (Set-Cookie on the Response) and the hosted action runner (Next's cookie jar)
 * carry it out with the same cookie attributes, so no rule writes a cookie itself.
 */
/**
 * A short-lived HttpOnly cookie that carries one step of a browser flow to the next
 * (the OAuth browser binding, the pending second factor); `maxAgeSeconds: 0` clears it.
 */
export interface FlowCookie {
  name: string;
  value: string;
  path: string;
  maxAgeSeconds: number;
}

export class ResponseEffects {
  session: { kind: "open"; grant: SessionGrant } | { kind: "clear" } | null = null;
  readonly headers = new Headers();
  readonly flowCookies: FlowCookie[] = [];

  openSession(grant: SessionGrant): void {
    this.session = { kind: "open", grant };
  }

  clearSession(): void {
    this.session = { kind: "clear" };
  }

  setFlowCookie(cookie: FlowCookie): void {
    this.flowCookies.push(cookie);
  }
}

/** The Set-Cookie values of the flow cookies: HttpOnly, SameSite=Lax, Secure on https, as the session cookie. */
export function flowSetCookies(effects: ResponseEffects, request: Request): string[] {
  return effects.flowCookies.map((cookie) =>
    serialize(cookie.name, cookie.value, {
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(request),
      path: cookie.path,
      maxAge: cookie.maxAgeSeconds,
      ...(cookie.maxAgeSeconds === 0 ? { expires: new Date(0) } : {}),
    }),
  );
}

/** The Set-Cookie values that carry out a session effect, with the attributes lib/sessions/cookies.ts decides. */
export function sessionSetCookies(effects: ResponseEffects, request: Request): string[] {
  const change = effects.session;
  if (!change) return [];
  if (change.kind === "clear") return clearedSessionCookies(request);
  const { session, token } = change.grant;
  return sessionCookies(request, token, session.expiresAt, session.lastActiveAt);
}

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
    session: grant.state,
    user: toClientUser(grant.user),
    ...(options.isNative ? { sessionToken: grant.token } : {}),
  };
}
