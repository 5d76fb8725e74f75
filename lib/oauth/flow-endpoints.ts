import { getDb } from "@/db/client";
import type { Infer } from "../operation/operation";
import { endpoint, type OperationInput } from "../operation/endpoint";
import { respondWithEstablishment } from "../sessions/respond-with-session";
import { SeeOther } from "../operation/see-other";
import { beginAuthorization } from "./begin-authorization";
import { CallbackTiming } from "./callback-timing";
import { completeCallback } from "./complete-callback";
import {
  authorizeOperation,
  callbackOperation,
  callbackPostOperation,
  continueSignUpOperation,
  getContinuationOperation,
  linkCompleteOperation,
  linkOperation,
  linkPostOperation,
  oauthReverifyCompleteOperation,
  oauthReverifyOperation,
} from "./flow-operations";
import type { linkQuery, providerParams } from "./flow-schemas";
import { beginLink, beginReverify, completeLink, completeReverify, type LinkStart } from "./link-flow";
import { describeContinuation, finishContinuation } from "./signup-continuation";

/*
 * The OAuth flow's operations with their implementations. The browser-facing ones
 * answer with redirects; the cookies they leave (the browser binding, the session,
 * the pending second factor) are response effects the route kit writes.
 */

export const authorizeEndpoint = endpoint(authorizeOperation, async ({ environment, params, query, context, effects }) => {
  const authorization = await beginAuthorization(
    getDb(),
    environment,
    {
      providerId: params.provider,
      redirectUrl: query.redirect_url ?? null,
      native: query._is_native === "true" || query._is_native === "1",
      codeChallenge: query.code_challenge ?? null,
      codeChallengeMethod: query.code_challenge_method ?? null,
    },
    context,
  );
  effects.setFlowCookie(authorization.browserCookie);
  return new SeeOther(authorization.location);
});

export const callbackEndpoint = endpoint(callbackOperation, async ({ environment, params, query, context, effects }) => {
  const timing = new CallbackTiming();
  const outcome = await completeCallback(getDb(), environment, params.provider, query, context, timing);
  if (outcome.grant) effects.openSession(outcome.grant);
  if (outcome.mfaFlow) effects.rememberMfaFlow(outcome.mfaFlow);
  effects.headers.set("server-timing", timing.header());
  if (outcome.flowCookie) effects.setFlowCookie(outcome.flowCookie);
  return new SeeOther(outcome.location);
});

/** The parameters a form_post callback carries on to the GET callback: the provider's answer, nothing else. */
const FORWARDED = ["state", "code", "iss", "error", "error_description"] as const;

export const callbackPostEndpoint = endpoint(callbackPostOperation, async ({ params, body }) => {
  const query = new URLSearchParams();
  for (const name of FORWARDED) {
    const value = body[name];
    if (value !== undefined) query.set(name, value);
  }
  return new SeeOther(`/_svc/auth/oauth2/${encodeURIComponent(params.provider)}/callback?${query.toString()}`);
});

type LinkStartInput = OperationInput<"sensitiveSession", Infer<typeof providerParams>, Infer<typeof linkQuery>, undefined>;

/** Both ways of starting a link flow (lib/oauth/link-flow.ts decides who may use which). */
async function startLink({ environment, session, params, query, context, effects }: LinkStartInput, start: LinkStart): Promise<SeeOther> {
  const input = { providerId: params.provider, redirectUrl: query.redirect_url ?? null, start };
  const authorization = await beginLink(getDb(), environment, session, input, context);
  effects.setFlowCookie(authorization.browserCookie);
  return new SeeOther(authorization.location);
}

export const linkPostEndpoint = endpoint(linkPostOperation, (input) => startLink(input, "POST"));

export const linkEndpoint = endpoint(linkOperation, (input) => startLink(input, "GET"));

export const linkCompleteEndpoint = endpoint(linkCompleteOperation, async ({ environment, session, query, context }) =>
  new SeeOther(await completeLink(getDb(), environment, session, query, context)),
);

export const reverifyEndpoint = endpoint(oauthReverifyOperation, async ({ environment, session, params, query, context, effects }) => {
  const authorization = await beginReverify(getDb(), environment, session, { providerId: params.provider, redirectUrl: query.redirect_url ?? null }, context);
  effects.setFlowCookie(authorization.browserCookie);
  return new SeeOther(authorization.location);
});

export const reverifyCompleteEndpoint = endpoint(oauthReverifyCompleteOperation, async ({ environment, session, query, context }) =>
  new SeeOther(await completeReverify(getDb(), environment, session, query, context)),
);

export const getContinuationEndpoint = endpoint(getContinuationOperation, ({ environment, query }) =>
  describeContinuation(getDb(), environment, query.token),
);

export const continueSignUpEndpoint = endpoint(continueSignUpOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await finishContinuation(getDb(), environment, body, context), { isNative: query._is_native }),
);
