import { sha256 } from "../crypto/tokens";
import { requestHost } from "../environments/resolve-client-environment";
import { SESSION_COOKIE, secureCookies } from "../sessions/cookies";
import { isSessionToken } from "../sessions/resolve-session";
import { clientIp } from "../operation/client-ip";
import { cookieValues, unambiguousCookies } from "../operation/cookie-header";
import type { RequestContext } from "../operation/request-context";
import { wantsHtml } from "../operation/see-other";

/** The plain request facts (lib/operation/request-context.ts) of a Request, read once by the kit or an action runner. */
export function requestContextOf(request: Request, requestId: string): RequestContext {
  return {
    requestId,
    ip: clientIp(request),
    userAgent: request.headers.get("user-agent")?.slice(0, 512) ?? null,
    origin: request.headers.get("origin"),
    host: requestHost(request),
    acceptsHtml: wantsHtml(request),
    fetchSite: request.headers.get("sec-fetch-site")?.trim().toLowerCase() ?? null,
    get secure() {
      return secureCookies(request);
    },
    get sessionCookieHashes() {
      return cookieValues(request.headers.get("cookie"), SESSION_COOKIE).filter(isSessionToken).map(sha256);
    },
    get cookies() {
      return unambiguousCookies(request.headers.get("cookie"));
    },
  };
}
