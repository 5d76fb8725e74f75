import type { EnvironmentContext } from "../environments/context";

/**
 * Clickjacking defence for the hosted pages: a page that signs in, changes a password
 * or deletes an account must not run inside someone else's frame. CSP
 * `frame-ancestors` comes from the environment's `security.frameAncestors` (default
 * `'none'`); `X-Frame-Options`, for browsers that predate it, can only say DENY or
 * SAMEORIGIN, so it is sent for exactly `'none'` or `'self'` and left out when origins
 * are listed (it would refuse them). No environment (an unknown host) gets the default.
 */
export function framingHeaders(environment: EnvironmentContext | null): Record<string, string> {
  const ancestors = environment?.settings.security.frameAncestors ?? ["'none'"];
  const headers: Record<string, string> = { "content-security-policy": `frame-ancestors ${ancestors.join(" ")}` };
  const only = ancestors.length === 1 ? ancestors[0] : null;
  if (only === "'none'") headers["x-frame-options"] = "DENY";
  if (only === "'self'") headers["x-frame-options"] = "SAMEORIGIN";
  return headers;
}
