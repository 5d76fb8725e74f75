import { serialize } from "cookie";
import { mfaFlowSetCookie, type MfaFlow } from "../hosted/flow-cookies";
import { clearedSessionCookies, secureCookies, sessionCookies } from "../sessions/cookies";
import type { Establishment, SessionGrant } from "../sessions/establish-session";
import { toClientUser } from "../users/serialize";

/**
 * A short-lived HttpOnly cookie that binds one step of a browser flow to the next
 * (the OAuth `gh_oauth` browser binding, the deferred sign-up's browser secret).
 */
export interface FlowCookie {
  name: string;
  value: string;
  path: string;
  maxAgeSeconds: number;
  /** Secure whatever the request says (a `__Host-` cookie needs it); else Secure on https, as the session cookie. */
  secure?: boolean;
}

/**
 * What an operation asks of the response besides its body: open or end the
 * session cookie, extra headers. The handler only states the intent; the route kit
 * (Set-Cookie on the Response) and the hosted action runner (Next's cookie jar)
 * carry it out with the same cookie attributes, so no rule writes a cookie itself.
 */
export class ResponseEffects {
  session: { kind: "open"; grant: SessionGrant } | { kind: "clear" } | null = null;
  /** A browser sign-in sent on to the hosted second-factor or enrollment page: its mfaToken travels in the gh_mfa cookie (`__Host-gh_mfa` on https). */
  mfaFlow: MfaFlow | null = null;
  readonly headers = new Headers();
  readonly flowCookies: FlowCookie[] = [];

  openSession(grant: SessionGrant): void {
    this.session = { kind: "open", grant };
  }

  clearSession(): void {
    this.session = { kind: "clear" };
  }

  rememberMfaFlow(flow: MfaFlow): void {
    this.mfaFlow = flow;
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
