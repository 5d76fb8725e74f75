import { getDb } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import { finalRedirectUrl, nextStepUrl, type FlowTarget } from "../flows/flow-target";
import { hostedHref } from "../flows/hosted-flow";
import { endpoint } from "../operation/endpoint";
import { respondWithEstablishment } from "../sessions/respond-with-session";
import { type ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import type { Establishment } from "../sessions/establish-session";
import { establishWebSessionOperation, redeemNativeTicketOperation, satelliteSyncOperation, startSatelliteSyncOperation } from "./operations";
import { redeemSessionTicket } from "./redeem-ticket";
import { satelliteSyncTarget, startSatelliteSync } from "./satellite-sync";
import { clearedSyncCookie, syncCookieName } from "./sync-binding";

// POST /_svc/auth/session/establish — a native app's ticket and PKCE verifier for a session
export const redeemNativeTicketEndpoint = endpoint(redeemNativeTicketOperation, async ({ environment, body, context, effects }) => {
  const channel = { kind: "native", codeVerifier: body.codeVerifier } as const;
  return respondWithEstablishment(effects, await redeemSessionTicket(getDb(), environment, body.ticket, channel, context), { isNative: true });
});

// GET /_svc/auth/session/establish — a satellite browser's ticket for a session cookie on this host, then a redirect
export const establishWebSessionEndpoint = endpoint(establishWebSessionOperation, async ({ environment, query, context, effects }) => {
  const links = linkBase(environment, context.host);
  const target: FlowTarget = { environment, links, flow: { publishableKey: links.publishableKey, redirectUrl: query.redirect_url ?? null } };
  // The nonce GET /_svc/auth/sync/start left here: one ticket is tried with it, whatever the outcome.
  const secure = context.secure === true;
  const syncNonce = context.cookies?.[syncCookieName(secure)] ?? null;
  if (syncNonce !== null) effects.setFlowCookie(clearedSyncCookie(secure));
  // No ticket: the primary had no session, and the app shows its signed-out state.
  if (!query.ticket) return new SeeOther(finalRedirectUrl(target));
  let result: Establishment;
  try {
    result = await redeemSessionTicket(getDb(), environment, query.ticket, { kind: "web", syncNonce }, context);
  } catch (error) {
    // A browser is navigating: it goes back to the app with the reason, not to a JSON page.
    if (error instanceof AppError && (error.code === "invalid_code" || error.code === "user_banned")) {
      return new SeeOther(withError(finalRedirectUrl(target), error.code));
    }
    throw error;
  }
  return new SeeOther(continueInBrowser(environment, target, result, effects));
});

// GET /_svc/auth/sync/start — on a satellite host: bind the handover to this browser, then on to the primary
export const startSatelliteSyncEndpoint = endpoint(startSatelliteSyncOperation, async ({ environment, query, context, effects }) => {
  const started = startSatelliteSync(environment, query.redirect_url, context);
  effects.setFlowCookie(started.cookie);
  return new SeeOther(started.location);
});

// GET /_svc/auth/sync — hand the session on this (primary) host to a satellite domain
export const satelliteSyncEndpoint = endpoint(satelliteSyncOperation, async ({ environment, session, query, context }) =>
  new SeeOther(await satelliteSyncTarget(getDb(), environment, session, { redirectUrl: query.redirect_url, binding: query.binding }, context)),
);

/**
 * Where a browser sign-in goes next, as the hosted pages decide after their own
 * sign-ins (lib/hosted/continue-url.ts): with a session, its next gate or the
 * redirect target; owing a second factor or its enrollment, that hosted page, with
 * the mfaToken in the gh_mfa cookie (never the URL).
 */
function continueInBrowser(environment: EnvironmentContext, target: FlowTarget, result: Establishment, effects: ResponseEffects): string {
  switch (result.kind) {
    case "session":
    case "pending_gates":
      effects.openSession(result.grant);
      return absolute(target, nextStepUrl(target, result.grant.state));
    case "second_factor_required":
      effects.rememberMfaFlow({ environmentId: environment.id, kind: "second_factor", token: result.mfaToken, factors: result.factors });
      return absolute(target, hostedHref("/second-factor", target.flow));
    case "enrollment_required":
      effects.rememberMfaFlow({ environmentId: environment.id, kind: "enrollment", token: result.mfaToken });
      return absolute(target, hostedHref("/mfa-enrollment", target.flow));
  }
}

/** Hosted pages are named by path; the Location names this very host. */
function absolute(target: FlowTarget, location: string): string {
  return new URL(location, target.links.origin).toString();
}

function withError(location: string, code: string): string {
  const url = new URL(location);
  url.searchParams.set("error", code);
  return url.toString();
}
