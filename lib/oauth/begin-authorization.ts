import type { Database } from "@/db/client";
import { normalizeOrigin } from "../environments/allowed-origins";
import type { EnvironmentContext } from "../environments/context";
import { linkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { FlowCookie } from "../operation/response-effects";
import { safeRedirect } from "../flows/safe-redirect";
import { presentedBrowserToken, startFlow, type FlowIntent } from "./flows";
import { authorizationUrl, callbackUrl, loadEnabledProvider, type ResolvedProvider } from "./provider-client";

export interface AuthorizeInput {
  providerId: string;
  redirectUrl: string | null;
  native: boolean;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

export interface Authorization {
  /** The provider's authorization URL, to redirect the browser to. */
  location: string;
  browserCookie: FlowCookie;
}

export async function loadProviderOrThrow(db: Database, environment: EnvironmentContext, providerId: string): Promise<ResolvedProvider> {
  const provider = await loadEnabledProvider(db, environment, providerId);
  if (!provider) throw new AppError("resource_not_found", "No enabled OAuth provider with this id.");
  return provider;
}

/**
 * The requested redirect_url, if the environment may be sent there (lib/http/safe-redirect.ts);
 * a refused one is an error, never silently replaced: the flow would end somewhere
 * its caller did not ask for. Null keeps the default destination.
 */
export function acceptedRedirect(requested: string | null, environment: EnvironmentContext, context: RequestContext): string | null {
  if (!requested) return null;
  const decision = safeRedirect(requested, environment, linkBase(environment, context.host));
  if (!decision.accepted) throw invalidField("redirect_url", "is not on one of the environment's allowed origins");
  return decision.url;
}

/**
 * A native app proves at the end of the flow that it is the one that started it
 * (RFC 7636, RFC 8252 §8.1): S256 only, since `plain` puts the verifier itself in
 * the browser's URL; a native flow needs a redirect_url (its allowed custom scheme)
 * to receive the ticket.
 */
function nativeChallenge(input: AuthorizeInput, redirectUrl: string | null, environment: EnvironmentContext): string | null {
  if (!input.native) {
    if (input.codeChallenge || input.codeChallengeMethod) {
      throw invalidField("code_challenge", "is only for native apps (_is_native=true)");
    }
    return null;
  }
  if (!input.codeChallenge) throw invalidField("code_challenge", "is required for native apps");
  if (input.codeChallengeMethod !== "S256") throw invalidField("code_challenge_method", "must be S256");
  if (!redirectUrl) throw invalidField("redirect_url", "is required for native apps");
  if (!isAppScheme(redirectUrl, environment)) {
    throw invalidField("redirect_url", "must be the app's custom scheme on the environment's allowed origins (e.g. myapp://callback) for native apps");
  }
  return input.codeChallenge;
}

/**
 * A native flow's ticket goes only to the app: a custom scheme (never http or https)
 * on the allowed origins, as the issue puts it (`myapp://callback`). Whoever starts a
 * native flow holds its verifier, so a link that walks a signed-in victim through it
 * toward a web page (any page of an allowed origin or frontend host) would leave the
 * victim's ticket in a URL that page's scripts (an XSS, a third-party tag) can read
 * and the attacker can redeem.
 */
function isAppScheme(redirectUrl: string, environment: EnvironmentContext): boolean {
  const url = new URL(redirectUrl);
  if (url.protocol === "http:" || url.protocol === "https:") return false;
  const origin = normalizeOrigin(`${url.protocol}//${url.host}`);
  return origin !== null && environment.allowedOrigins.includes(origin);
}

/** Starts a flow (sign-in, or link for a signed-in user) and answers where to send the browser. */
export async function beginFlow(
  db: Database,
  environment: EnvironmentContext,
  provider: ResolvedProvider,
  input: { intent: FlowIntent; userId?: string; sessionId?: string; redirectUrl: string | null; native: boolean; codeChallenge: string | null },
  context: RequestContext,
): Promise<Authorization> {
  const base = linkBase(environment, context.host);
  const started = await startFlow(db, environment, { providerId: provider.id, base, ...input }, presentedBrowserToken(base, context));
  const url = await authorizationUrl(provider, {
    redirectUri: callbackUrl(base, provider.id),
    state: started.state,
    nonce: started.nonce,
    codeVerifier: started.codeVerifier,
    requestId: context.requestId,
    freshSignIn: input.intent === "reverify",
  });
  return { location: url.toString(), browserCookie: started.browserCookie };
}

/** GET /_svc/auth/oauth2/{provider}/authorize: checks the parameters, then starts a sign-in flow. */
export async function beginAuthorization(
  db: Database,
  environment: EnvironmentContext,
  input: AuthorizeInput,
  context: RequestContext,
): Promise<Authorization> {
  const redirectUrl = acceptedRedirect(input.redirectUrl, environment, context);
  const codeChallenge = nativeChallenge(input, redirectUrl, environment);
  const provider = await loadProviderOrThrow(db, environment, input.providerId);
  return beginFlow(db, environment, provider, { intent: "sign_in", redirectUrl, native: input.native, codeChallenge }, context);
}
