import { redirect } from "next/navigation";
import type { z } from "zod";
import { getDb } from "@/db/client";
import type { sessionEstablishedSchema } from "../auth/schemas";
import type { EnvironmentContext } from "../environments/context";
import type { LinkBase } from "../environments/environment-links";
import { safeRedirect } from "../http/safe-redirect";
import { sessionState, type SessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";
import { forgetMfaFlow, rememberMfaFlow } from "./flow-cookies";
import { GATE_PAGES, hostedHref, type HostedFlow } from "./hosted-flow";

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

/** A hosted flow in its environment, with the host its links stay on. */
export interface FlowTarget {
  environment: EnvironmentContext;
  flow: HostedFlow;
  links: LinkBase;
}

/**
 * Where the flow ends: the requested redirect_url when safeRedirect accepts it,
 * else the environment's fallback, on the host the flow runs on (through PUBLIC_URL
 * with this environment's pk, which safeRedirect adds). Refusals are
 * logged, since they are either a misconfigured allowed-origins list or someone
 * probing for an open redirect.
 */
export function finalRedirectUrl({ environment, flow, links }: FlowTarget): string {
  const decision = safeRedirect(flow.redirectUrl, environment, links);
  if (!decision.accepted && flow.redirectUrl) {
    console.warn(`hosted: refused redirect_url for environment ${environment.id}: ${describeForLog(flow.redirectUrl)}`);
  }
  return decision.url;
}

/** After sign-in, sign-up or a cleared gate: the next open gate's page, else the final redirect. */
export function nextStepUrl(target: FlowTarget, state: SessionState): string {
  const gate = state.currentGate?.key;
  return gate ? hostedHref(GATE_PAGES[gate], target.flow) : finalRedirectUrl(target);
}

/** For someone already signed in (e.g. opening sign-in again): their next gate, else the redirect. */
export async function continueUrlForSession(target: FlowTarget, session: ActiveSession): Promise<string> {
  const state = await sessionState(getDb(), target.environment, session.user, session.session.id);
  return nextStepUrl(target, state);
}

/** The account page's "back to the app" link: the accepted redirect, else the home URL; none when that is this very page. */
export function backToAppUrl(target: FlowTarget): string | null {
  if (!target.flow.redirectUrl && !target.environment.settings.branding.homeUrl) return null;
  const url = new URL(finalRedirectUrl(target));
  return url.pathname === "/account" && url.origin === target.links.origin ? null : url.toString();
}

/**
 * Where a hosted sign-in, sign-up, reset or second factor goes once the operation
 * answered: with a session, its next gate or the final redirect; owing a second
 * factor or its enrollment, that page, with the mfaToken kept in an HttpOnly
 * cookie (never the URL).
 */
export async function continueAfterSignIn(
  result: z.output<typeof sessionEstablishedSchema>,
  target: FlowTarget & { request: Request },
): Promise<never> {
  if ("session" in result) {
    // A challenge left over from an earlier attempt must not outlive the sign-in.
    await forgetMfaFlow();
    redirect(nextStepUrl(target, result.session));
  }
  const environmentId = target.environment.id;
  switch (result.status) {
    case "needs_second_factor":
      await rememberMfaFlow(target.request, { environmentId, kind: "second_factor", token: result.mfaToken, factors: result.factors });
      redirect(hostedHref("/second-factor", target.flow));
    case "needs_mfa_enrollment":
      await rememberMfaFlow(target.request, { environmentId, kind: "enrollment", token: result.mfaToken });
      redirect(hostedHref("/mfa-enrollment", target.flow));
  }
}
