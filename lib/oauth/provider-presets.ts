import { isProduction } from "../config/runtime";

export const PROVIDER_TYPES = ["oidc", "google", "github", "microsoft", "apple", "gitlab"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** How Gatehouse talks to a provider type. */
export type ProviderPreset =
  | {
      protocol: "oidc";
      label: string;
      /** The issuer used when the provider names none; null: the operator must give one. */
      defaultIssuer: string | null;
      /** Whether an operator may name another issuer (a Microsoft tenant, a self-hosted GitLab). */
      issuerOverridable: boolean;
      defaultScopes: readonly string[];
      /** Apple returns name and email only with `form_post`: its callback arrives as a POST. */
      responseMode: "query" | "form_post";
      /** Apple documents `email_verified` as a boolean or the string "true"/"false". */
      stringBooleans?: true;
    }
  | {
      /** GitHub is OAuth2 without OpenID Connect: the profile comes from its REST API. */
      protocol: "github";
      label: string;
      defaultIssuer: string;
      issuerOverridable: true;
      defaultScopes: readonly string[];
      responseMode: "query";
    };

const OIDC_SCOPES = ["openid", "email", "profile"] as const;

export const PROVIDER_PRESETS: Record<ProviderType, ProviderPreset> = {
  oidc: { protocol: "oidc", label: "OpenID Connect", defaultIssuer: null, issuerOverridable: true, defaultScopes: OIDC_SCOPES, responseMode: "query" },
  google: {
    protocol: "oidc",
    label: "Google",
    defaultIssuer: "https://accounts.google.com",
    issuerOverridable: false,
    defaultScopes: OIDC_SCOPES,
    responseMode: "query",
  },
  microsoft: {
    protocol: "oidc",
    label: "Microsoft",
    // Multi-tenant: openid-client checks the id_token's issuer against the tenant it names (`tid`).
    defaultIssuer: "https://login.microsoftonline.com/common/v2.0",
    issuerOverridable: true,
    defaultScopes: OIDC_SCOPES,
    responseMode: "query",
  },
  apple: {
    protocol: "oidc",
    label: "Apple",
    defaultIssuer: "https://appleid.apple.com",
    issuerOverridable: false,
    defaultScopes: ["openid", "email", "name"],
    responseMode: "form_post",
    stringBooleans: true,
  },
  gitlab: { protocol: "oidc", label: "GitLab", defaultIssuer: "https://gitlab.com", issuerOverridable: true, defaultScopes: OIDC_SCOPES, responseMode: "query" },
  github: {
    protocol: "github",
    label: "GitHub",
    // A GitHub Enterprise Server is named by its base URL; its REST API lives under /api/v3.
    defaultIssuer: "https://github.com",
    issuerOverridable: true,
    defaultScopes: ["read:user", "user:email"],
    responseMode: "query",
  },
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A loopback host name: 127.0.0.1, ::1, localhost or a *.localhost name (RFC 6761). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith(".localhost");
}

/**
 * Why an issuer URL is refused, or null when it is acceptable (CONTRACT §5): https,
 * or http on a loopback host outside production (local and test providers); no
 * credentials, query or fragment (discovery appends to the path).
 */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username || url.password) return "must not carry credentials";
  if (url.search || url.hash) return "must not have a query or fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) {
    return isProduction() ? "must use https in production" : null;
  }
  return url.protocol === "http:" ? "must use https (http only on a loopback host, outside production)" : "must be an https URL";
}

/** Whether plain-http requests to this issuer are allowed (only for loopback hosts, outside production). */
export function allowsInsecureRequests(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === "http:" && isLoopbackHost(url.hostname) && !isProduction();
}
