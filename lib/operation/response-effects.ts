import type { MfaFlow } from "../flows/mfa-flow";
import type { SessionGrant } from "../sessions/establish-session";

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
