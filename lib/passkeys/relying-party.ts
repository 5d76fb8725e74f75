import { publicUrl } from "../config/runtime";
import { normalizeOrigin } from "../environments/allowed-origins";
import type { EnvironmentContext } from "../environments/context";
import { frontendHostOrigin, linkBase } from "../environments/environment-links";

/** Who passkeys are created for and where their ceremonies may run (WebAuthn §5.1.3 steps 9, 13; §7.1 steps 11, 13). */
export interface RelyingParty {
  /** The RP ID: the host name the environment's pages and API are reached on for this request. */
  id: string;
  /** Shown by the authenticator: the environment's application name. */
  name: string;
  /** Every origin a ceremony's clientDataJSON may name, in canonical form. */
  origins: string[];
}

/** The origin's host is the RP ID or a subdomain of it: the only origins a browser lets use that RP ID. */
function withinRpId(origin: string, rpId: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === rpId || hostname.endsWith(`.${rpId}`);
}

/**
 * The relying party for a request that arrived on `host`. The RP ID follows the link
 * base (a frontend host of the environment, else PUBLIC_URL's host), built from the
 * environment's stored entries, never from what the request claims: a passkey made
 * here is bound to a name the environment owns.
 *
 * The expected origins are the environment's own (its frontend hosts under PUBLIC_URL's
 * scheme and port rule; PUBLIC_URL itself when the environment is reached by its
 * publishable key) and its allowed web origins, each only when it may use this RP ID.
 * The request's Origin header is never trusted as one: an attacker's page proxying a
 * ceremony would otherwise have its own origin accepted, the phishing passkeys prevent.
 */
export function relyingParty(environment: EnvironmentContext, host: string | null): RelyingParty {
  const base = linkBase(environment, host);
  const id = new URL(base.origin).hostname;
  const own = environment.frontendHosts.map(frontendHostOrigin);
  if (base.publishableKey) own.push(new URL(publicUrl()).origin);
  const web = environment.allowedOrigins.filter((origin) => origin.startsWith("https://") || origin.startsWith("http://"));
  const origins = [...own, ...web]
    .map((origin) => normalizeOrigin(origin))
    .filter((origin): origin is string => origin !== null && withinRpId(origin, id));
  return { id, name: environment.settings.branding.applicationName, origins: [...new Set(origins)] };
}
