import { environmentUrl, type LinkBase } from "../environments/environment-links";
import type { EnvironmentContext } from "../environments/context";
import { normalizeOrigin } from "../environments/allowed-origins";
import { browserOriginAllowed } from "./cors";

/** Whitespace and control characters: URL parsers silently drop some of them ("/\t/evil.com" becomes "//evil.com"). */
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f\\]/;

export interface RedirectDecision {
  url: string;
  /** False when the requested target was refused and the fallback is used instead. */
  accepted: boolean;
}

/** Where to go when no acceptable target is given: the environment's home URL, else the hosted account page on the flow's own host. */
export function fallbackRedirect(environment: EnvironmentContext, base: LinkBase): string {
  return environment.settings.branding.homeUrl ?? environmentUrl(base, "/account");
}

/**
 * Open-redirect defence: a `redirect_url` is honoured only when its origin is the
 * environment's own (frontend hosts, hosted pages) or on its allowed-origins list,
 * compared as exact normalised origins, scheme and port included (a frontend host
 * means PUBLIC_URL's scheme on exactly that host:port); non-http schemes (native
 * apps) only via the list. A same-site path (`/account`) is allowed. Credentials in the URL, schemes
 * that execute (`javascript:`), backslashes, whitespace and control characters are
 * refused outright. Anything else falls back. A path stays on the flow's own host
 * (`base`), where its session cookie lives.
 */
export function safeRedirect(requested: string | null | undefined, environment: EnvironmentContext, base: LinkBase): RedirectDecision {
  const fallback = { url: fallbackRedirect(environment, base), accepted: false };
  if (!requested) return { ...fallback, accepted: true };
  if (requested.length > 2048 || UNSAFE_CHARACTERS.test(requested)) return fallback;
  if (/^\/(?!\/)/.test(requested)) {
    // An encoded slash or backslash may be decoded by a proxy into "//host".
    if (/%2f|%5c/i.test(requested)) return fallback;
    return { url: new URL(requested, base.origin).toString(), accepted: true };
  }

  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return fallback;
  }
  if (url.username || url.password) return fallback;
  const origin = normalizeOrigin(`${url.protocol}//${url.host}`);
  if (!origin) return fallback;
  return browserOriginAllowed(environment, origin) ? { url: url.toString(), accepted: true } : fallback;
}
