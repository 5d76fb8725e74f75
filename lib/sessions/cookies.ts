import { serialize } from "cookie";
import { publicUrl } from "../config/runtime";

export const SESSION_COOKIE = "__gh_session";
export const SESSION_HINT_COOKIE = "__gh_session_hint";

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
 * The session cookie (opaque token, HttpOnly) and its hint (readable by scripts;
 * holds the last-active unix time so SDKs can tell a session may exist). Both are
 * host-only (no Domain attribute): a sibling subdomain can neither read them nor be
 * sent them.
 */
export function sessionCookies(request: Request, token: string, expiresAt: Date, lastActiveAt: Date): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: secureCookies(request), expires: expiresAt };
  return [
    serialize(SESSION_COOKIE, token, { ...common, httpOnly: true }),
    serialize(SESSION_HINT_COOKIE, String(Math.floor(lastActiveAt.getTime() / 1000)), common),
  ];
}

export function clearedSessionCookies(request: Request): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: secureCookies(request), expires: new Date(0), maxAge: 0 };
  return [serialize(SESSION_COOKIE, "", { ...common, httpOnly: true }), serialize(SESSION_HINT_COOKIE, "", common)];
}
