import { hostedFlowFromForm, hostedHref } from "../flows/hosted-flow";
import { impersonateEndpoint } from "../impersonation/endpoints";
import { assertOriginAllowed } from "../http/cors";
import { formText, successState } from "./form-state";
import { runOperationAction } from "./run-action";

/** Where the dashboard's "Impersonate" posts its one-time token, on the environment's own host. */
export const IMPERSONATION_LANDING_PATH = "/impersonate";

/** The refusals the landing's failure page explains; anything else reads as the generic one. */
export const LANDING_FAILURES = ["invalid_code", "user_banned", "rate_limited", "origin_not_allowed"] as const;
export type LandingFailure = (typeof LANDING_FAILURES)[number] | "generic";

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

/**
 * POST /impersonate (form: token, pk when the environment has no frontend host) —
 * the hosted landing of the dashboard's "Impersonate": redeems the token like
 * POST /_svc/auth/session/impersonate, through the hosted action runner (the same
 * pipeline, rate limit and session cookie as the Client API), then sends the new tab
 * to the account page, where the impersonation banner shows.
 *
 * Why a route handler and not a page's server action: the dashboard is another
 * origin (PUBLIC_URL) than a tenant's frontend host, and Next.js refuses a server
 * action posted cross-origin. This landing accepts the dashboard's origin by the
 * Client API's own rule (assertOriginAllowed: PUBLIC_URL, the environment's hosts
 * and allowed origins), so a foreign site cannot post here; and the token is itself
 * the credential, minted only for an operator with revealSecrets or a secret key of
 * this very environment. The token arrives in the body: it never sits in a URL that
 * a server or proxy logs, nor in a Referer.
 */
export async function impersonationLanding(request: Request): Promise<Response> {
  const form = await request.formData().catch(() => new FormData());
  const flow = hostedFlowFromForm(form);
  const state = await runOperationAction(form, impersonateEndpoint, {
    // The failure page is a GET with a code: the "messages" here are the codes it knows.
    describe: () => ({ fields: [], messages: Object.fromEntries(LANDING_FAILURES.map((code) => [code, code])) }),
    before: (context) => {
      assertOriginAllowed(context.request, context.environment);
      return null;
    },
    input: () => ({ body: { token: formText(form, "token") } }),
    then: async () => successState(null),
  });
  if (state.status === "success") return seeOther(hostedHref("/account", { ...flow, redirectUrl: null }));
  const failure = (LANDING_FAILURES as readonly string[]).includes(state.message ?? "") ? (state.message as LandingFailure) : "generic";
  return seeOther(hostedHref(`${IMPERSONATION_LANDING_PATH}/failed`, { ...flow, redirectUrl: null }, { error: failure }));
}
