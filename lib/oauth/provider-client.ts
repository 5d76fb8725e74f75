import { and, eq } from "drizzle-orm";
import * as oidc from "openid-client";
import type { Database } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import type { LinkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import { profileFromClaims, type ProviderProfile } from "./profile";
import { discoveredConfiguration, providerFailure } from "./provider-configuration";
import { gitHubProfile } from "./provider-github";
import { PROVIDER_PRESETS, type ProviderPreset, type ProviderType } from "./provider-presets";

export type { ProviderType } from "./provider-presets";

/** An enabled provider of one environment, ready for a flow. The secret stays sealed until a flow needs it. */
export interface ResolvedProvider {
  id: string;
  type: ProviderType;
  name: string;
  clientId: string;
  /** The effective issuer: the row's, else the preset's (GitHub: the base URL of github.com or an Enterprise Server). */
  issuer: string;
  /** The effective scopes: the row's, else the preset's. */
  scopes: string[];
  preset: ProviderPreset;
  clientSecretSealed: string;
}

/** The issuer and scopes a provider row stands for: its own, else its preset's. */
export function effectiveSettings(row: { type: ProviderType; issuer: string | null; scopes: string[] }): { issuer: string | null; scopes: string[] } {
  const preset = PROVIDER_PRESETS[row.type];
  const issuer = preset.issuerOverridable ? (row.issuer ?? preset.defaultIssuer) : preset.defaultIssuer;
  return { issuer, scopes: row.scopes.length ? row.scopes : [...preset.defaultScopes] };
}

/** The environment's enabled provider with this id, or null (unknown, disabled, or another environment's). */
export async function loadEnabledProvider(db: Database, environment: Pick<EnvironmentContext, "id">, providerId: string): Promise<ResolvedProvider | null> {
  const [row] = await db
    .select()
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environment.id), eq(oauthProviders.id, providerId), eq(oauthProviders.enabled, true)))
    .limit(1);
  if (!row) return null;
  const { issuer, scopes } = effectiveSettings(row);
  if (!issuer) return null;
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    clientId: row.clientId,
    issuer,
    scopes,
    preset: PROVIDER_PRESETS[row.type],
    clientSecretSealed: row.clientSecretSealed,
  };
}

/**
 * The redirect URI to register with the provider (CONTRACT "Pinned shapes"):
 * `{frontend origin}/_svc/auth/oauth2/{id}/callback`. It carries no query: the
 * token request must repeat it exactly and openid-client sends the callback URL
 * without its query, so an environment reached through PUBLIC_URL is known at the
 * callback by its flow (`state`), not by a `pk` parameter.
 */
export function callbackUrl(base: LinkBase, providerId: string): string {
  return new URL(`/_svc/auth/oauth2/${encodeURIComponent(providerId)}/callback`, base.origin).toString();
}

/**
 * Where to send the browser: the provider's authorization endpoint with PKCE (S256),
 * `state`, and for OpenID Connect a `nonce` (RFC 7636, OIDC Core §3.1.2.1).
 */
export async function authorizationUrl(
  provider: ResolvedProvider,
  p: { redirectUri: string; state: string; nonce: string; codeVerifier: string; requestId?: string; freshSignIn?: boolean },
): Promise<URL> {
  try {
    const config = await discoveredConfiguration(provider);
    const parameters: Record<string, string> = {
      redirect_uri: p.redirectUri,
      response_type: "code",
      scope: provider.scopes.join(" "),
      state: p.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(p.codeVerifier),
      code_challenge_method: "S256",
    };
    if (provider.preset.protocol === "oidc") parameters.nonce = p.nonce;
    // Reverification: the provider must ask the user again, not pass on a session it remembers (OIDC Core §3.1.2.1).
    if (p.freshSignIn) Object.assign(parameters, { prompt: "login", max_age: "0" });
    if (provider.preset.responseMode === "form_post") parameters.response_mode = "form_post";
    return oidc.buildAuthorizationUrl(config, parameters);
  } catch (error) {
    throw providerFailure(provider, "authorize", error, p.requestId);
  }
}

/**
 * Completes the provider's side of a callback: checks `state` and the provider's
 * `iss` response parameter, redeems the code with the PKCE verifier, and for
 * OpenID Connect validates the id_token (signature by the issuer's JWKS, `iss`,
 * `aud`, `exp`, `nonce`) before reading the profile. Any failure, including the
 * provider's own `error=` answer, is an AppError `oauth_failed`; the provider's
 * error code (e.g. `access_denied`) is in `properties.providerError`.
 *
 * `currentUrl` is the callback URL as received (for `form_post`, with the posted
 * fields added to its query); only its query is read: the token request repeats
 * `redirectUri` exactly. `requestId` goes into the log line of a failure.
 */
export async function exchangeCallback(
  provider: ResolvedProvider,
  p: {
    redirectUri: string;
    currentUrl: URL;
    state: string;
    nonce: string;
    codeVerifier: string;
    requestId?: string;
    /** Reverification: the id_token's `auth_time` must be at or after this (the flow's start). */
    signedInSince?: Date;
  },
): Promise<ProviderProfile> {
  let profile: ProviderProfile | null;
  try {
    const config = await discoveredConfiguration(provider);
    const received = new URL(p.redirectUri);
    received.search = p.currentUrl.search;
    if (provider.preset.protocol === "github") {
      const tokens = await oidc.authorizationCodeGrant(config, received, { pkceCodeVerifier: p.codeVerifier, expectedState: p.state });
      profile = await gitHubProfile(config, provider, tokens.access_token);
    } else {
      const tokens = await oidc.authorizationCodeGrant(config, received, {
        pkceCodeVerifier: p.codeVerifier,
        expectedState: p.state,
        expectedNonce: p.nonce,
        idTokenExpected: true,
        // auth_time required and no older than the flow (a few seconds of clock skew allowed).
        ...(p.signedInSince ? { maxAge: Math.ceil((Date.now() - p.signedInSince.getTime()) / 1000) + 5 } : {}),
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("no id_token");
      // Providers differ in what the id_token carries (oidc-provider and Okta: only `sub`
      // by default); UserInfo, bound to the same `sub`, fills in the rest.
      const userInfo = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub) : {};
      profile = profileFromClaims({ ...userInfo, ...claims }, { stringBooleans: provider.preset.stringBooleans });
    }
  } catch (error) {
    throw providerFailure(provider, "callback", error, p.requestId);
  }
  if (!profile) throw new AppError("oauth_failed", `${provider.name} sent no usable account id.`);
  return profile;
}
