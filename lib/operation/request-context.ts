/**
 * What the rules in lib/ may know about the request that reached them, in plain
 * data: who is calling from where. Only the route kit and the hosted action runner
 * see a `Request`; they build this from it, so a rule cannot read a header nobody
 * vetted (a spoofed X-Forwarded-For, a Host) or write a cookie behind their back.
 */
export interface RequestContext {
  requestId: string;
  /** The client address as lib/http/client-ip.ts trusts it; null when unknown. */
  ip: string | null;
  userAgent: string | null;
  /** The browser Origin, already checked against the environment's allowed origins. */
  origin: string | null;
  /**
   * The host[:port] the request arrived on, as the Host header says. Links and
   * redirects built for this request stay on it when it is one of the
   * environment's frontend hosts (lib/environments/environment-links.ts).
   */
  host: string | null;
  /** A browser navigating (Accept: text/html), not code asking for JSON: emailed links answer it with a page. */
  acceptsHtml: boolean;
  /**
   * The browser's `Sec-Fetch-Site` (`cross-site`, `same-site`, `same-origin`, `none`),
   * lower-cased; null when the request has none (not a browser, or an old one),
   * absent where no request exists.
   */
  readonly fetchSite?: string | null;
  /**
   * Whether this request's cookies are Secure (https, or an https PUBLIC_URL:
   * lib/sessions/cookies.ts), so a flow cookie may carry the `__Host-` prefix,
   * which a sibling subdomain cannot plant; absent where no request exists.
   */
  readonly secure?: boolean;
  /**
   * SHA-256 of each session cookie presented (never the tokens themselves), for
   * sign-out's ownership check; computed on first read, as only sign-out needs it.
   */
  readonly sessionCookieHashes: string[];
  /**
   * The request's cookies, for the few flows that bind a step to the browser that
   * started it (the OAuth `gh_oauth` cookie); absent where no request exists. A name
   * presented twice is left out: one of them was planted (a sibling subdomain's
   * Domain cookie, or a narrower Path), and which comes first is not ours to trust.
   */
  readonly cookies?: Readonly<Record<string, string | undefined>>;
}
