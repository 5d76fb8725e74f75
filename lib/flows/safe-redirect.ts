import { environmentUrl, type LinkBase } from "../environments/environment-links";
import type { EnvironmentContext } from "../environments/context";
import { normalizeOrigin } from "../environments/allowed-origins";
import { isFrontendHostOrigin, isPublicUrlOrigin } from "../environments/environment-origins";

/** Whitespace and control characters: URL parsers silently drop some of them ("/\t/evil.com" becomes "//evil.com"). */
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f\\]/;

export interface RedirectDecision {
  url: string;
  /** False when the requested target was refused and the fallback is used instead. */
  accepted: boolean;
}

/** Where to go when no acceptable target is given: the environment's home URL, else the hosted account page on the flow's own host. */
export function fallbackRedirect(environment: EnvironmentContext, base: LinkBase): string {
  const home = environment.settings.branding.homeUrl;
  return home ? namingThisEnvironment(new URL(home), environment, base) : environmentUrl(base, "/account");
}

/**
 * Open-redirect defence: a `redirect_url` is honoured only when its origin is the
 * environment's own (frontend hosts, hosted pages) or on its allowed-origins list,
 * compared as exact normalised origins, scheme and port included (a frontend host
 * means PUBLIC_URL's scheme on exactly that host:port); non-http schemes (native
 * apps) only via the list. A same-site path (`/account`) is allowed. Credentials in the URL, schemes
 * that execute (`javascript:`), backslashes, whitespace and control characters are
 * refused outright. Anything else falls back. A path stays on the flow's own host
 * (`base`), where its session cookie lives. A page of Gatehouse's own must show
 * this environment (`pk`, below).
 */
export function safeRedirect(requested: string | null | undefined, environment: EnvironmentContext, base: LinkBase): RedirectDecision {
  const fallback = { url: fallbackRedirect(environment, base), accepted: false };
  if (!requested) return { ...fallback, accepted: true };
  const target = acceptedTarget(requested, environment, base);
  return target ? { url: namingThisEnvironment(target, environment, base), accepted: true } : fallback;
}

/** The requested target as an absolute URL, or null when it is refused. */
function acceptedTarget(requested: string, environment: EnvironmentContext, base: LinkBase): URL | null {
  if (requested.length > 2048 || UNSAFE_CHARACTERS.test(requested)) return null;
  if (/^\/(?!\/)/.test(requested)) {
    // An encoded slash or backslash may be decoded by a proxy into "//host".
    if (/%2f|%5c/i.test(requested)) return null;
    const url = new URL(requested, base.origin);
    return namesOnlyThisEnvironment(url, environment) ? url : null;
  }
  if (!URL.canParse(requested)) return null;
  const url = new URL(requested);
  if (url.username || url.password) return null;
  const origin = normalizeOrigin(`${url.protocol}//${url.host}`);
  return origin && targetAllowed(url, origin, environment, base) ? url : null;
}

/**
 * A flow running on PUBLIC_URL (its base carries `pk`) ends on a page of PUBLIC_URL
 * only with this environment's `pk`: without one the page picks its environment by
 * the Host, and when PUBLIC_URL's host is also another environment's frontend host
 * (the dev seed's default) that is the other environment, so this flow would end on
 * another tenant's branded page. Another `pk` never gets here (namesOnlyThisEnvironment).
 * The parameter is appended, so the rest of the query keeps its exact spelling.
 */
function namingThisEnvironment(url: URL, environment: EnvironmentContext, base: LinkBase): string {
  // URL's own origin is normalised already for http(s), and "null" for other schemes.
  if (base.publishableKey && isPublicUrlOrigin(url.origin) && !url.searchParams.has("pk")) {
    const pk = `pk=${encodeURIComponent(environment.publishableKey)}`;
    url.search = url.search ? `${url.search}&${pk}` : pk;
  }
  return url.toString();
}

/**
 * An absolute target on an allowed origin. Gatehouse's own pages (frontend hosts,
 * PUBLIC_URL) pick their environment by `pk` before the Host, and PUBLIC_URL serves
 * every environment: there a target must name this environment, by its own `pk`, or
 * by none when the flow itself runs on PUBLIC_URL (the returned URL then gets this
 * `pk`, namingThisEnvironment). Otherwise one tenant's flow could end on
 * another tenant's branded page (`https://PUBLIC_URL/sign-in?pk=pk_other`).
 * CORS trusts PUBLIC_URL for every environment (lib/http/cors.ts); redirects do not.
 */
function targetAllowed(url: URL, origin: string, environment: EnvironmentContext, base: LinkBase): boolean {
  if (isFrontendHostOrigin(environment, origin)) return namesOnlyThisEnvironment(url, environment);
  if (isPublicUrlOrigin(origin)) return url.searchParams.has("pk") ? namesOnlyThisEnvironment(url, environment) : base.publishableKey !== null;
  return environment.allowedOrigins.includes(origin);
}

/** No `pk` parameter, or only this environment's own: a Gatehouse page that shows this environment. */
function namesOnlyThisEnvironment(url: URL, environment: EnvironmentContext): boolean {
  return url.searchParams.getAll("pk").every((key) => key === environment.publishableKey);
}
