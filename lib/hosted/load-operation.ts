import { bootProbeEndpoint } from "../auth/endpoints";
import { AppError } from "../errors";
import { retryReadOnce, serviceUnavailableFor } from "../http/database-faults";
import { executeOperation } from "../http/pipeline";
import { requestIdFor } from "../http/request-id";
import type { AnyEndpoint, RawInput } from "../operation/endpoint";
import { ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import { StreamedBody } from "../operation/streamed-body";
import type { ActiveSession } from "../sessions/resolve-session";
import { hostedCaller, redirectForSession, redirectToSignIn, type HostedFrame, type ResultOf } from "./run-action";

/** A hosted page rendering: its context, its flow, and where a sign-in it asks for comes back to. */
export interface HostedPage extends HostedFrame {
  /** A hosted path (`/account`); absent, the flow's own redirect_url stays, as on the gate pages, whose flow goes on to the app. */
  returnTo?: string;
}

/**
 * Runs a Client API read for a hosted page (a server component), through the same
 * pipeline as the route kit and the hosted forms (lib/hosted/run-action.ts): auth
 * level, organization scope, input schemas, handler. So a page shows what the API
 * would answer its session, and checks no session by hand: a refused session goes
 * where a form's would (sign-in and back to `page.returnTo`, the open gate, "confirm
 * it's you"). Other errors are the page's to show. A dropped database connection
 * is retried once, as every read is, then rendered by app/(hosted)/error.tsx.
 */
export async function loadOperation<E extends AnyEndpoint>(page: HostedPage, target: E, input: RawInput = {}): Promise<ResultOf<E>> {
  const { operation } = target;
  // Next renders a page for prefetches and link previews too: rendering must change nothing.
  if (operation.method !== "get") throw new Error(`${operation.operationId} is not a read: a page loads only GET operations`);
  const requestId = requestIdFor(page.request);
  const effects = new ResponseEffects();
  let result: unknown;
  try {
    result = await retryReadOnce(() => executeOperation(target, hostedCaller(page, requestId), input, effects));
  } catch (error) {
    if (error instanceof AppError) redirectForSession(error, page, page.returnTo);
    // Next logs what a page throws: the AppError's one line, not the failed query and its parameters.
    throw serviceUnavailableFor(error, requestId) ?? error;
  }
  // A server component cannot answer with a redirect or set a cookie; an operation that asks to is no page read.
  if (result instanceof SeeOther || result instanceof StreamedBody || effects.session || effects.mfaFlow || effects.flowCookies.length > 0) {
    throw new Error(`${operation.operationId} answers with a redirect, a stream or a cookie, which a page cannot send`);
  }
  return result as ResultOf<E>;
}

/**
 * The signed-in user and their session's state (its open gates), for the pages a
 * PENDING session may see (the gates' own): the boot probe (GET /_svc/client)
 * through loadOperation. Signed out goes to sign-in, as `unauthorized` does.
 */
export async function loadSessionState(page: HostedPage) {
  const probe = await loadOperation(page, bootProbeEndpoint);
  if (!probe.user) redirectToSignIn(page, page.returnTo);
  return probe.user;
}

/**
 * The page's session once an operation has accepted it (a session-level
 * loadOperation or loadSessionState returned), for what no operation answers with:
 * when it last proved a factor, the organization it acts for. Called before, it is
 * a bug, not a signed-out visitor.
 */
export function acceptedSession(page: HostedPage): ActiveSession {
  if (!page.session) throw new Error("acceptedSession before an operation accepted the page's session");
  return page.session;
}
