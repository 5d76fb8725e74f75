import { redirect } from "next/navigation";
import type { z } from "zod";
import { getDb } from "@/db/client";
import type { sessionEstablishedSchema } from "../auth/schemas";
import { publicUrl } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";
import { safeRedirect } from "../http/safe-redirect";
import { sessionState, type SessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";
import { hostedHref, type HostedFlow } from "./hosted-flow";

/** Hosted pages that need the pk parameter to find their environment again. */
const HOSTED_PATHS = ["/sign-in", "/sign-up", "/account", "/consent", "/verify-email"];

/** Only what identifies the target: a refused URL's query may carry tokens or personal data. */
function describeForLog(requested: string): string {
  try {
    const url = new URL(requested);
    return `${url.protocol}${url.host ? `//${url.host}` : ""}${url.pathname}`.slice(0, 200);
  } catch {
    // Not an absolute URL: a path-like value; keep what precedes any query or fragment.
    return `(relative) ${requested.split(/[?#]/)[0] ?? ""}`.slice(0, 200);
  }
}

/**
 * Where the flow ends: the requested redirect_url when safeRedirect accepts it,
 * else the environment's fallback. Refusals are logged, since they are either a
 * misconfigured allowed-origins list or someone probing for an open redirect.
 */
export function finalRedirectUrl(environment: EnvironmentContext, flow: HostedFlow): string {
  const decision = safeRedirect(flow.redirectUrl, environment);
  if (!decision.accepted && flow.redirectUrl) {
    console.warn(`hosted: refused redirect_url for environment ${environment.id}: ${describeForLog(flow.redirectUrl)}`);
  }
  if (!flow.publishableKey) return decision.url;
  // The fallback is our own account page: keep pk so it still finds the environment.
  const target = new URL(decision.url);
  if (target.origin === new URL(publicUrl()).origin && HOSTED_PATHS.includes(target.pathname) && !target.searchParams.has("pk")) {
    target.searchParams.set("pk", flow.publishableKey);
  }
  return target.toString();
}

/** After sign-in, sign-up or a cleared gate: the next open gate's page, else the final redirect. */
export function nextStepUrl(environment: EnvironmentContext, state: SessionState, flow: HostedFlow): string {
  switch (state.currentGate?.key) {
    case "LEGAL_ACCEPTANCE":
      return hostedHref("/consent", flow);
    case "EMAIL_VERIFICATION":
      return hostedHref("/verify-email", flow);
    default:
      return finalRedirectUrl(environment, flow);
  }
}

/** For someone already signed in (e.g. opening sign-in again): their next gate, else the redirect. */
export async function continueUrlForSession(environment: EnvironmentContext, session: ActiveSession, flow: HostedFlow): Promise<string> {
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  return nextStepUrl(environment, state, flow);
}

/** The account page's "back to the app" link: the accepted redirect, else the home URL; none when that is this very page. */
export function backToAppUrl(environment: EnvironmentContext, flow: HostedFlow): string | null {
  if (!flow.redirectUrl && !environment.settings.branding.homeUrl) return null;
  const url = finalRedirectUrl(environment, flow);
  return new URL(url).pathname === "/account" && new URL(url).origin === new URL(publicUrl()).origin ? null : url;
}

/**
 * Where a hosted sign-in, sign-up or reset goes once the operation answered: with a
 * session, its next gate or the final redirect. A second-factor or enrollment
 * challenge has no hosted page before second factors exist (nothing produces one
 * yet), so it fails loudly rather than pass the challenge by.
 */
export function continueAfterSignIn(
  result: z.output<typeof sessionEstablishedSchema>,
  context: { environment: EnvironmentContext; flow: HostedFlow },
): never {
  if ("session" in result) redirect(nextStepUrl(context.environment, result.session, context.flow));
  throw new Error(`hosted sign-in answered ${result.status}, which has no hosted page`);
}
