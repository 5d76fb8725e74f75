import * as oidc from "openid-client";
import { unseal } from "../crypto/secret-box";
import { AppError } from "../errors";
import { providerFetch } from "./outbound-address";
import type { ResolvedProvider } from "./provider-client";
import { allowsInsecureRequests } from "./provider-presets";

/** Discovered metadata (and with it the JWKS openid-client caches) is kept this long per provider configuration. */
const CONFIGURATION_TTL_MS = 60 * 60 * 1000;
/**
 * A failed discovery is kept this long: anyone can start /authorize, and without it
 * every such request would send Gatehouse to the issuer again.
 */
const FAILED_CONFIGURATION_TTL_MS = 30 * 1000;
const MAX_CACHED = 1000;
/** Seconds for any one request to a provider: a hung provider must not hold a callback open. */
const PROVIDER_TIMEOUT_SECONDS = 10;

const cache = new Map<string, { expiresAt: number; configuration: Promise<oidc.Configuration> }>();

async function buildConfiguration(provider: ResolvedProvider): Promise<oidc.Configuration> {
  const secret = await unseal(provider.clientSecretSealed);
  const insecure = allowsInsecureRequests(provider.issuer);
  if (provider.preset.protocol === "github") {
    // GitHub publishes no discovery document: its endpoints are fixed under the base URL.
    const base = provider.issuer.replace(/\/+$/, "");
    const config = new oidc.Configuration(
      { issuer: base, authorization_endpoint: `${base}/login/oauth/authorize`, token_endpoint: `${base}/login/oauth/access_token` },
      provider.clientId,
      secret,
    );
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    config[oidc.customFetch] = providerFetch;
    if (insecure) oidc.allowInsecureRequests(config);
    return config;
  }
  // Plain http only for a loopback issuer outside production (CONTRACT §5); the rule
  // lives in allowsInsecureRequests, checked again here and not only when saved.
  // openid-client trusts an id_token from the token endpoint by TLS alone (OIDC Core
  // §3.1.3.7 step 6 allows it); the non-repudiation checks also verify its signature
  // against the issuer's JWKS, so a token the issuer did not sign is refused.
  // providerFetch checks the address of every request: the discovery document names
  // the other endpoints, and it is no more trusted than the issuer itself.
  return oidc.discovery(new URL(provider.issuer), provider.clientId, secret, oidc.ClientSecretPost(secret), {
    [oidc.customFetch]: providerFetch,
    execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
    timeout: PROVIDER_TIMEOUT_SECONDS,
  });
}

/**
 * The openid-client configuration of a provider: discovered once and reused for an
 * hour (metadata and JWKS), keyed by issuer, client id and the sealed secret, so an
 * edited provider gets a fresh one. A failed discovery is kept for 30 seconds.
 */
export function discoveredConfiguration(provider: ResolvedProvider): Promise<oidc.Configuration> {
  // Whether plain http is allowed is part of the key: it depends on the mode, not only on the row.
  const key = [provider.preset.protocol, provider.issuer, provider.clientId, provider.clientSecretSealed, allowsInsecureRequests(provider.issuer)].join("\n");
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && cached.expiresAt > now) return cached.configuration;
  if (cache.size >= MAX_CACHED) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  const configuration = buildConfiguration(provider);
  cache.set(key, { expiresAt: now + CONFIGURATION_TTL_MS, configuration });
  configuration.catch(() => {
    const entry = cache.get(key);
    if (entry?.configuration === configuration) entry.expiresAt = Date.now() + FAILED_CONFIGURATION_TTL_MS;
  });
  return configuration;
}

const PROVIDER_ERROR_CODE = /^[a-z0-9_.-]{1,64}$/i;

/**
 * The AppError for a failed step with a provider. The provider's own `error=` code is
 * passed on (it tells "the user pressed cancel" from a fault); everything else is
 * logged by class and message (openid-client's messages name the failed check, never
 * a token) and answered with one generic `oauth_failed`.
 */
export function providerFailure(provider: ResolvedProvider, stage: "authorize" | "callback", error: unknown, requestId?: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    const providerError = PROVIDER_ERROR_CODE.test(error.error) ? error.error : "unknown";
    return new AppError("oauth_failed", `${provider.name} did not complete the sign-in (${providerError}).`, { properties: { providerError } });
  }
  const failure = error as { name?: string; code?: string; message?: string; cause?: unknown };
  // fetch reports every network failure as "fetch failed": its cause tells a refused
  // connection from a refused address (OutboundAddressRefused). Only an Error's: a
  // response body as cause is the provider's text.
  const inner = failure?.cause instanceof Error ? (failure.cause as Error & { code?: string }) : undefined;
  const cause = inner ? { name: inner.name, code: inner.code, message: inner.message } : undefined;
  console.warn(
    JSON.stringify({ level: "warn", event: "oauth_provider_failure", requestId, provider: provider.id, stage, error: failure?.name, code: failure?.code, message: failure?.message, cause }),
  );
  return new AppError("oauth_failed", `The sign-in with ${provider.name} could not be completed.`);
}
