import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { publicUrl } from "../config/runtime";
import { findEnvironment, type EnvironmentContext } from "../environments/context";
import { isPublicUrlHost } from "../environments/frontend-host";
import { environmentUrl, linkBase, type LinkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import { nextStepUrl } from "../flows/flow-target";
import type { MfaFlow } from "../flows/mfa-flow";
import type { RequestContext } from "../operation/request-context";
import type { FlowCookie } from "../operation/response-effects";
import { safeRedirect } from "../flows/safe-redirect";
import { logUnexpectedError } from "../log";
import { establishSession, type SessionGrant } from "../sessions/establish-session";
import { issueSessionTicket } from "../tickets/session-tickets";
import { loadProviderOrThrow } from "./begin-authorization";
import type { CallbackTiming } from "./callback-timing";
import { consumeFlow, peekFlowBase, presentedBrowserToken, SESSION_FLOW_COMPLETE_PATHS, type ConsumedFlow } from "./flows";
import { callbackUrl, exchangeCallback } from "./provider-client";
import type { ProviderProfile } from "./profile";
import { holdProvider } from "./hold-provider";
import { resolveSignIn } from "./resolve-sign-in";
import { issueContinuation } from "./signup-continuation";

/** What the provider's redirect carried, as received (RFC 6749 §4.1.2 / §4.1.2.1). */
export type CallbackQuery = Record<string, unknown> & { state?: string; error?: string };

/**
 * Where a callback sends the browser, and what it leaves behind: the session
 * cookie of a web sign-in, the gh_mfa cookie of one that owes a second factor, or
 * the browser secret of a sign-up deferred for consent.
 */
export interface CallbackOutcome {
  location: string;
  grant?: SessionGrant;
  mfaFlow?: MfaFlow;
  flowCookie?: FlowCookie;
}

/** `url` with extra query parameters (a native app's custom scheme keeps its form). */
export function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}

/** The hosted page that explains a failed flow (`error=` an error code), on the flow's host. */
export function errorPage(base: LinkBase, code: string): string {
  return environmentUrl(base, "/oauth-error", { error: code });
}

/**
 * Where a failed flow ends: the app's redirect_url with `error=`, when the flow
 * has one and the environment still allows it (checked when the flow started and
 * again now), else the hosted error page. A flow that cannot be identified never
 * follows a URL: only the hosted error page of the host it arrived on.
 */
export function failureLocation(
  environment: EnvironmentContext | null,
  flow: Pick<ConsumedFlow, "redirectUrl" | "base"> | null,
  fallbackBase: LinkBase,
  code: string,
): string {
  if (environment && flow?.redirectUrl) {
    const decision = safeRedirect(flow.redirectUrl, environment, flow.base);
    if (decision.accepted) return withParams(decision.url, { error: code });
  }
  return errorPage(flow?.base ?? fallbackBase, code);
}

/**
 * The error code a failure reports: our own codes as they are, a provider's
 * refusal as `access_denied`, and anything unexpected (logged with the request id)
 * as `oauth_failed`, never its message or stack.
 */
export function failureCode(error: unknown, requestId: string): string {
  if (error instanceof AppError) return error.properties?.providerError === "access_denied" ? "access_denied" : error.code;
  logUnexpectedError(requestId, error);
  return "oauth_failed";
}

/** The provider's own error redirect (`?error=access_denied`), refused before any exchange. */
export function assertNoProviderError(query: CallbackQuery): void {
  if (query.error === undefined) return;
  throw new AppError("oauth_failed", "The provider did not authorize the sign-in.", {
    properties: { providerError: query.error === "access_denied" ? "access_denied" : "provider_error" },
  });
}

/** The callback URL as received: the registered redirect URI with the provider's parameters. */
export function receivedUrl(base: LinkBase, providerId: string, query: CallbackQuery): URL {
  const url = new URL(callbackUrl(base, providerId));
  for (const [name, value] of Object.entries(query)) if (typeof value === "string") url.searchParams.set(name, value);
  return url;
}

/**
 * Exchanges the code with the provider the flow was started for; the flow's nonce
 * and verifier. `timing` (the callback's Server-Timing) times the exchange alone.
 */
export async function profileForFlow(
  db: Database,
  environment: EnvironmentContext,
  flow: ConsumedFlow,
  query: CallbackQuery,
  requestId: string,
  timing?: CallbackTiming,
): Promise<ProviderProfile> {
  assertNoProviderError(query);
  const provider = await loadProviderOrThrow(db, environment, flow.providerId);
  const exchange = () =>
    exchangeCallback(provider, {
      redirectUri: callbackUrl(flow.base, provider.id),
      currentUrl: receivedUrl(flow.base, provider.id, query),
      state: String(query.state),
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      requestId,
      ...(flow.intent === "reverify" ? { signedInSince: flow.startedAt } : {}),
    });
  return timing ? timing.exchange(exchange) : exchange();
}

/**
 * GET /_svc/auth/oauth2/{provider}/callback. The state must name a live flow of this
 * provider started in this browser; it is consumed before anything else happens.
 * A flow a signed-in session started (link, reverify) is handed on, unconsumed, to
 * its completion endpoint. Every failure ends on a
 * redirect with an error code, never a stack trace.
 */
export async function completeCallback(
  db: Database,
  callerEnvironment: EnvironmentContext | null,
  providerId: string,
  query: CallbackQuery,
  context: RequestContext,
  timing: CallbackTiming,
): Promise<CallbackOutcome> {
  const hereBase = callerEnvironment ? linkBase(callerEnvironment, context.host) : { origin: new URL(publicUrl()).origin, publishableKey: null };
  const match = { state: query.state, browserToken: presentedBrowserToken(hereBase, context), providerId };
  // PUBLIC_URL's host may also be an environment's frontend host: there a flow another environment started with its
  // pk (whose callback URL is the same) is as much this browser's as one of the host's own, and its state says which.
  const scope = callerEnvironment && !isPublicUrlHost(context.host) ? callerEnvironment.id : null;
  const flow = await consumeFlow(db, scope, { ...match, intent: "sign_in" });
  if (!flow) {
    const sessionFlow = await peekFlowBase(db, scope, { ...match, intent: ["link", "reverify"] });
    if (sessionFlow && sessionFlow.intent !== "sign_in") {
      return { location: sessionFlowCompleteUrl(sessionFlow.base, SESSION_FLOW_COMPLETE_PATHS[sessionFlow.intent], query) };
    }
    return { location: failureLocation(null, null, hereBase, "oauth_state_invalid") };
  }
  const environment = callerEnvironment?.id === flow.environmentId ? callerEnvironment : await findEnvironment(db, flow.environmentId);
  if (!environment) return { location: failureLocation(null, flow, hereBase, "oauth_state_invalid") };
  try {
    const profile = await profileForFlow(db, environment, flow, query, context.requestId, timing);
    return await signInWithProfile(db, environment, flow, profile, context).catch((error: unknown) => {
      // Two first sign-ins of one provider account (or address) at once: the loser's transaction is undone.
      if (isUniqueViolation(error)) throw new AppError("identifier_exists", "This account was just created by another sign-in; try again.");
      throw error;
    });
  } catch (error) {
    return { location: failureLocation(environment, flow, flow.base, failureCode(error, context.requestId)) };
  }
}

/** A session flow's completion (link/complete, reverify/complete) on the flow's host, with the provider's parameters unchanged (and `pk` off a frontend host). */
function sessionFlowCompleteUrl(base: LinkBase, path: string, query: CallbackQuery): string {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (typeof value === "string" && name !== "pk") params[name] = value;
  return environmentUrl(base, path, params);
}

/**
 * The sign-in itself, in one transaction: who the provider account is (a known
 * identity, an account it may be linked to, or a new user) and what the flow gets:
 * a web session (through establishSession, so MFA still applies), a native app's
 * one-time ticket, or a continuation token when consent is still owed.
 */
async function signInWithProfile(
  db: Database,
  environment: EnvironmentContext,
  flow: ConsumedFlow,
  profile: ProviderProfile,
  context: RequestContext,
): Promise<CallbackOutcome> {
  return db.transaction(async (tx): Promise<CallbackOutcome> => {
    await holdProvider(tx, environment.id, flow.providerId);
    const resolution = await resolveSignIn(tx, environment, { providerId: flow.providerId, profile }, context);
    if (resolution.kind === "consent_required") {
      if (flow.native && flow.redirectUrl && flow.codeChallenge) {
        const { token } = await issueContinuation(tx, environment, { providerId: flow.providerId, profile, binding: { codeChallenge: flow.codeChallenge } });
        return { location: withParams(flow.redirectUrl, { continuation_token: token }) };
      }
      // The web: bound to this browser (the consent page's cookie), the token in the URL alone finishes nothing.
      const { token, browserCookie } = await issueContinuation(tx, environment, { providerId: flow.providerId, profile, binding: { browser: flow.base } });
      return {
        location: environmentUrl(flow.base, "/sign-up/continue", { token, ...(flow.redirectUrl ? { redirect_url: flow.redirectUrl } : {}) }),
        ...(browserCookie ? { flowCookie: browserCookie } : {}),
      };
    }
    const { user } = resolution;
    if (flow.native && flow.redirectUrl) {
      // The app redeems the ticket with its verifier (POST /auth/session/establish), which applies MFA.
      const ticket = await issueSessionTicket(tx, environment, { user, methods: ["oauth"], codeChallenge: flow.codeChallenge });
      return { location: withParams(flow.redirectUrl, { ticket }) };
    }
    const hostedFlow: Record<string, string> = flow.redirectUrl ? { redirect_url: flow.redirectUrl } : {};
    const established = await establishSession(tx, environment, user, { methods: ["oauth"] }, context);
    switch (established.kind) {
      case "session":
      case "pending_gates": {
        // Like a hosted sign-in: the next open gate's page (consent, email verification), else the redirect.
        const target = { environment, flow: { publishableKey: flow.base.publishableKey, redirectUrl: flow.redirectUrl }, links: flow.base };
        return { location: new URL(nextStepUrl(target, established.grant.state), flow.base.origin).toString(), grant: established.grant };
      }
      case "second_factor_required":
        return {
          location: environmentUrl(flow.base, "/second-factor", hostedFlow),
          mfaFlow: { environmentId: environment.id, kind: "second_factor", token: established.mfaToken, factors: established.factors },
        };
      case "enrollment_required":
        return {
          location: environmentUrl(flow.base, "/mfa-enrollment", hostedFlow),
          mfaFlow: { environmentId: environment.id, kind: "enrollment", token: established.mfaToken },
        };
    }
  });
}
