import { publicUrl } from "../config/runtime";
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
  /**
   * The dashboard's internal environment: its users are operators, who have no hosted
   * pages (no publishable key or Host reaches it), so every link made for one (the
   * notices of their factor changes) leads to their account page in the dashboard.
   */
  operators?: true;
}

/** Where an operator manages their own account (app/(dashboard)/dashboard/account). */
const OPERATOR_ACCOUNT_PATH = "/dashboard/account";

/**
 * The environment's frontend host entry that `host` (host[:port], from the request)
 * stands for: the exact entry, else an entry without a port for the same name.
 */
function frontendHostEntry(environment: EnvironmentContext, host: string): string | null {
  const exact = host.toLowerCase();
  const bare = exact.replace(/:\d+$/, "");
  return environment.frontendHosts.find((entry) => entry === exact) ?? environment.frontendHosts.find((entry) => entry === bare) ?? null;
}

/**
 * The link base for a request that arrived on `host` (null for work with no
 * request: the environment's first frontend host, as its issuer names it). A
 * frontend host keeps its own origin, with PUBLIC_URL's scheme (behind a TLS proxy
 * the socket is plain http). The origin is built from the stored entry, never from
 * the request's host string: a client-chosen Host or X-Forwarded-Host can only pick
 * among the environment's own hosts, never put another port or name in an email.
 */
export function linkBase(environment: EnvironmentContext, host: string | null): LinkBase {
  if (environment.internal) return { origin: new URL(publicUrl()).origin, publishableKey: environment.publishableKey, operators: true };
  const entry = host ? frontendHostEntry(environment, host) : environment.frontendHosts[0];
  if (entry) return { origin: frontendHostOrigin(entry), publishableKey: null };
  return { origin: new URL(publicUrl()).origin, publishableKey: environment.publishableKey };
}

/**
 * The origin of a frontend host entry: PUBLIC_URL's scheme, and PUBLIC_URL's port
 * when the entry names none (so `acme.localhost` works beside `localhost:3000` in
 * development; in production PUBLIC_URL names no port), serialised as a URL does
 * (an entry's `:443` under https is no part of it). The issuer uses the same rule.
 */
export function frontendHostOrigin(entry: string): string {
  const base = new URL(publicUrl());
  const withPort = /:\d+$/.test(entry) || !base.port ? entry : `${entry}:${base.port}`;
  return new URL(`${base.protocol}//${withPort}`).origin;
}

/** An absolute link to a page of the environment, on its link base. */
export function environmentUrl(base: LinkBase, path: string, params: Record<string, string> = {}): string {
  if (base.operators) return new URL(OPERATOR_ACCOUNT_PATH, base.origin).toString();
  const url = new URL(path, base.origin);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (base.publishableKey) url.searchParams.set("pk", base.publishableKey);
  return url.toString();
}
