import { publicUrl } from "../config/runtime";
import { issuerFor } from "../tokens/issuer";
import type { EnvironmentContext } from "./context";

/**
 * Where the links of one flow live (CONTRACT §1 "public URL"): the environment's
 * own frontend host when the request arrived on it — its session cookie is
 * host-only and lives there — else PUBLIC_URL, naming the environment with `pk`.
 */
export interface LinkBase {
  origin: string;
  /** Set only when links go through PUBLIC_URL, where the Host does not name the environment. */
  publishableKey: string | null;
}

/** True when `host` (host[:port]) is one of the environment's frontend hosts; an entry without a port matches any port. */
export function isFrontendHost(environment: EnvironmentContext, host: string): boolean {
  const bare = host.toLowerCase().replace(/:\d+$/, "");
  return environment.frontendHosts.some((entry) => entry === host.toLowerCase() || entry === bare);
}

/**
 * The link base for a request that arrived on `host` (null for work with no
 * request: the environment's first frontend host, as its issuer names it). A
 * frontend host keeps its own origin, with PUBLIC_URL's scheme (behind a TLS proxy
 * the socket is plain http).
 */
export function linkBase(environment: EnvironmentContext, host: string | null): LinkBase {
  const base = new URL(publicUrl());
  if (host && isFrontendHost(environment, host)) return { origin: `${base.protocol}//${host.toLowerCase()}`, publishableKey: null };
  if (!host && environment.frontendHosts.length > 0) return { origin: new URL(issuerFor(environment)).origin, publishableKey: null };
  return { origin: base.origin, publishableKey: environment.publishableKey };
}

/** An absolute link to a page of the environment, on its link base. */
export function environmentUrl(base: LinkBase, path: string, params: Record<string, string> = {}): string {
  const url = new URL(path, base.origin);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (base.publishableKey) url.searchParams.set("pk", base.publishableKey);
  return url.toString();
}
