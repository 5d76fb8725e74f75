import { redirect } from "next/navigation";
import type { z } from "zod";
import { bootProbeEndpoint } from "../auth/endpoints";
import type { sessionEstablishedSchema } from "../auth/schemas";
import { finalRedirectUrl, nextStepUrl, type FlowTarget } from "../flows/flow-target";
import { forgetMfaFlow, rememberMfaFlow } from "./flow-cookies";
import { hostedHref } from "../flows/hosted-flow";
import { loadOperation, type HostedPage } from "./load-operation";

/**
 * For someone already signed in (e.g. opening sign-in again): on to their next
 * gate, else the redirect; the session's state through the boot probe. Signed out,
 * the page renders.
 */
export async function continueIfSignedIn(page: HostedPage): Promise<void> {
  const signedIn = (await loadOperation(page, bootProbeEndpoint)).user;
  if (signedIn) redirect(nextStepUrl(page, signedIn.session));
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
