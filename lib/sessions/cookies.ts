import { serialize } from "cookie";

export const SESSION_COOKIE = "__gh_session";
export const SESSION_HINT_COOKIE = "__gh_session_hint";

/** Secure cookies whenever the request arrived over https (directly or via a proxy). */
export function isSecureRequest(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(":", "")) === "https";
}

/**
 * The session cookie (opaque token, HttpOnly) and its hint (readable by scripts;
 * holds the last-active unix time so SDKs can tell a session may exist).
 */
export function sessionCookies(request: Request, token: string, expiresAt: Date, lastActiveAt: Date): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: isSecureRequest(request), expires: expiresAt };
  return [
    serialize(SESSION_COOKIE, token, { ...common, httpOnly: true }),
    serialize(SESSION_HINT_COOKIE, String(Math.floor(lastActiveAt.getTime() / 1000)), common),
  ];
}

export function clearedSessionCookies(request: Request): string[] {
  const common = { path: "/", sameSite: "lax" as const, secure: isSecureRequest(request), expires: new Date(0), maxAge: 0 };
  return [serialize(SESSION_COOKIE, "", { ...common, httpOnly: true }), serialize(SESSION_HINT_COOKIE, "", common)];
}
