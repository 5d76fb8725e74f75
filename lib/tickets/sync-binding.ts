import { z } from "zod";
import { randomToken, safeEqual } from "../crypto/tokens";
import { hostPrefixed } from "../operation/cookie-header";
import type { FlowCookie } from "../operation/response-effects";
import { s256Challenge } from "./pkce";

/**
 * Binds a satellite's web ticket to the browser that asked for it. The satellite
 * starts the handover on its own host (GET /_svc/auth/sync/start), which leaves a
 * random nonce in a short-lived HttpOnly cookie there and sends only its SHA-256 to
 * the primary; the ticket carries that hash, and the satellite's GET
 * /_svc/auth/session/establish opens a session only for the browser holding the
 * nonce. A ticket minted by someone else (login CSRF: the attacker's own account
 * pushed into the victim's browser) or carried to another browser opens nothing.
 */

/** The nonce cookie on plain http (development); on https it is `__Host-gh_sync`, which a sibling subdomain cannot set. */
export const SYNC_COOKIE = "gh_sync";
export const SYNC_COOKIE_LIFETIME_SECONDS = 5 * 60;

/** BASE64URL(SHA-256(nonce)): 43 characters, as an S256 code challenge. */
export const syncBindingSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, "The browser binding from GET /_svc/auth/sync/start: 43 base64url characters (SHA-256 of the nonce it set).");

/** The cookie's name: `__Host-gh_sync` on https, `gh_sync` on plain http (hostPrefixed). */
export function syncCookieName(secure: boolean): string {
  return hostPrefixed(SYNC_COOKIE, secure);
}

/** A fresh nonce: the cookie that keeps it on the satellite host, and the binding that travels to the primary. */
export function newSyncBinding(secure: boolean): { cookie: FlowCookie; binding: string } {
  const nonce = randomToken();
  return {
    cookie: { name: syncCookieName(secure), value: nonce, path: "/", maxAgeSeconds: SYNC_COOKIE_LIFETIME_SECONDS },
    binding: s256Challenge(nonce),
  };
}

/** The cookie that ends the binding once a ticket was tried with it (used or not, it is spent). */
export function clearedSyncCookie(secure: boolean): FlowCookie {
  return { name: syncCookieName(secure), value: "", path: "/", maxAgeSeconds: 0 };
}

/** Whether the browser's nonce is the one the ticket was bound to; compared in constant time. */
export function bindingMatches(nonce: string | null | undefined, binding: string | null): boolean {
  if (!nonce || !binding || nonce.length > 256) return false;
  return safeEqual(s256Challenge(nonce), binding);
}
