import { createHmac } from "node:crypto";
import { serialize } from "cookie";
import { publicUrl } from "../config/runtime";
import { derivedKey } from "../crypto/master-key";
import { safeEqual } from "../crypto/tokens";
import { cookieValues, soleCookieValue } from "../operation/cookie-header";

export const SESSION_COOKIE = "__gh_session";
export const SESSION_HINT_COOKIE = "__gh_session_hint";
/**
 * The session cookie's companion on an https deployment. `__gh_session` keeps its
 * contract name, which a sibling subdomain can plant (a Domain cookie) to sign a
 * victim into the attacker's account; a `__Host-` cookie (Secure, Path=/, no Domain)
 * only this host can set, so a session cookie counts only beside the companion made
 * for its token.
 */
export const SESSION_BINDING_COOKIE = "__Host-gh_session_bind";

/**
 * Whether cookies get `Secure`: always when PUBLIC_URL is https (a deployment that is
 * https must never send its cookies over plain http, whatever a proxy forgets to say),
 * and also for a request that arrived over https (directly or via a proxy).
 */
export function secureCookies(request: Request): boolean {
  if (publicUrl().startsWith("https://")) return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(":", "")) === "https";
}

/**
 * Whether the session cookie travels with its companion: when PUBLIC_URL is https,
 * where every cookie is Secure as a `__Host-` one must be. Plain http is local
 * development, where a browser refuses `__Host-` cookies and nothing changes.
 */
function sessionBindingOn(): boolean {
  return publicUrl().startsWith("https://");
}

/**
 * The companion's value: a keyed hash of the token (HMAC-SHA256, key derived from the
 * master secret), so it names one token without carrying anything that opens it.
 */
function sessionBinding(token: string): string {
  return createHmac("sha256", derivedKey("session-binding/v1")).update(token).digest("base64url");
}

/**
 * The session cookie's token that counts, or undefined. Over plain http, the one
 * `__gh_session`: of two, neither (cookiePresentedTwice: which one was planted is not
 * ours to tell). On https, the one the `__Host-` companion was made for (constant-time
 * compare): only this host can set the companion, so it tells the real token from one
 * a sibling subdomain planted beside it, which then neither signs the user in as
 * someone else nor, by its mere presence, signs them out. A planted cookie alone has
 * no companion, or one made for another token, and counts as none.
 */
export function sessionCookieToken(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  if (!sessionBindingOn()) return soleCookieValue(header, SESSION_COOKIE);
  const companion = soleCookieValue(header, SESSION_BINDING_COOKIE);
  if (companion === undefined) return undefined;
  const bound = new Set(cookieValues(header, SESSION_COOKIE).filter((token) => safeEqual(companion, sessionBinding(token))));
  return bound.size === 1 ? [...bound][0] : undefined;
}

/**
 * The session cookie (opaque token, HttpOnly), its companion on https, and its hint
 * (readable by scripts; holds the last-active unix time so SDKs can tell a session
 * may exist). All are host-only (no Domain attribute): a sibling subdomain can
 * neither read them nor be sent them.
 */
export function sessionCookies(request: Request, token: string, expiresAt: Date, lastActiveAt: Date): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: secureCookies(request), expires: expiresAt };
  return [
    serialize(SESSION_COOKIE, token, { ...common, httpOnly: true }),
    ...(sessionBindingOn() ? [serialize(SESSION_BINDING_COOKIE, sessionBinding(token), { ...common, httpOnly: true })] : []),
    serialize(SESSION_HINT_COOKIE, String(Math.floor(lastActiveAt.getTime() / 1000)), common),
  ];
}

/** The removal of every cookie sessionCookies sets, with the same attributes. */
export function clearedSessionCookies(request: Request): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: secureCookies(request), expires: new Date(0), maxAge: 0 };
  return [
    serialize(SESSION_COOKIE, "", { ...common, httpOnly: true }),
    ...(sessionBindingOn() ? [serialize(SESSION_BINDING_COOKIE, "", { ...common, httpOnly: true })] : []),
    serialize(SESSION_HINT_COOKIE, "", common),
  ];
}
