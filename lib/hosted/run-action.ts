import { cookies, headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import { AppError } from "../errors";
import { serviceUnavailableFor } from "../http/database-faults";
import { executeOperation } from "../http/pipeline";
import type { AnyEndpoint, RawInput } from "../operation/endpoint";
import type { PresentedCredentials } from "../operation/caller";
import { requestContextOf } from "../http/request-context";
import { requestIdFor } from "../http/request-id";
import { ResponseEffects } from "../operation/response-effects";
import { sessionSetCookies } from "../http/effect-cookies";
import { SeeOther } from "../operation/see-other";
import { StreamedBody } from "../operation/streamed-body";
import type { GateKey } from "../sessions/gates";
import { nextStepUrl } from "../flows/flow-target";
import { errorState, type ErrorOptions } from "./form-errors";
import type { FormState } from "./form-state";
import { loadActionContext, type HostedContext } from "./hosted-context";
import { messagesFor, type Messages } from "./i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "./locale";
import { applySetCookies } from "./response-cookies";
import { hostedHref, hostedFlowFromForm, type HostedFlow } from "../flows/hosted-flow";

/** A hosted page or form running operations: its context and the flow it continues. */
export interface HostedFrame extends HostedContext {
  flow: HostedFlow;
}

export interface ActionContext extends HostedFrame {
  requestId: string;
}

type Describe = (t: Messages) => Omit<ErrorOptions, "requestId">;

/** Hosted pages and forms never invoke a link target, so a See Other answer is not theirs to handle. */
export type ResultOf<E extends AnyEndpoint> = Exclude<Awaited<ReturnType<E["handle"]>>, SeeOther | StreamedBody>;

/** What a hosted page or form presents to the pipeline: the environment and session its context resolved, and the request's facts. */
export function hostedCaller(frame: HostedContext, requestId: string): PresentedCredentials {
  return { environment: frame.environment, session: frame.session, context: requestContextOf(frame.request, requestId) };
}

/** A form-level error before the environment (and so its default language) is known. */
async function contextlessErrorState(message: (t: Messages) => string): Promise<FormState> {
  const locale = pickLocale({
    chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
    userLocale: null,
    acceptLanguage: (await headers()).get("accept-language"),
    defaultLocale: "en",
  });
  return { status: "error", message: message(messagesFor(locale)), fieldErrors: {}, values: {}, nonce: Date.now() };
}

/**
 * The frame of every hosted server action: find the environment from the posted pk
 * (or the Host) exactly as a page does, run the action, and turn failures into the
 * form's state. Next's redirect/notFound signals pass through untouched. A session
 * the operation refuses sends the browser where it can go on: sign-in, the gate
 * still open, or the "confirm it's you" prompt. A lost database connection is the
 * form's "try again" message, never a 500: the context (a read) was already retried
 * once, and the action's own writes are not retried (lib/http/database-faults.ts).
 */
export async function runHostedAction<S extends FormState = FormState>(
  form: FormData,
  describe: Describe,
  run: (context: ActionContext) => Promise<S>,
): Promise<S | FormState> {
  const flow = hostedFlowFromForm(form);
  let context: HostedContext | null;
  try {
    context = await loadActionContext(flow.publishableKey);
  } catch (error) {
    if (!serviceUnavailableFor(error, "hosted-action")) throw error;
    return contextlessErrorState((t) => t.errors.service_unavailable);
  }
  if (!context) return contextlessErrorState((t) => t.notFound.title);
  const requestId = requestIdFor(context.request);
  try {
    return await run({ ...context, flow, requestId });
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof AppError) redirectForSession(error, { ...context, flow }, "/account");
    return errorState(serviceUnavailableFor(error, requestId) ?? error, context.t, { ...describe(context.t), requestId });
  }
}

/**
 * Sign-in, then back to `returnTo` (a hosted path); without one the flow's own
 * redirect_url stays, as on the gate pages, whose flow goes on to the app.
 */
export function redirectToSignIn(frame: HostedFrame, returnTo: string | undefined): never {
  redirect(hostedHref("/sign-in", returnTo ? { ...frame.flow, redirectUrl: returnTo } : frame.flow));
}

/**
 * Where a session the operation refused can go on: sign-in (then back to
 * `returnTo`), the gate still open, or the account page's "confirm it's you"
 * prompt. Any other error is the caller's to show.
 */
export function redirectForSession(error: AppError, frame: HostedFrame, returnTo: string | undefined): void {
  if (error.code === "unauthorized") redirectToSignIn(frame, returnTo);
  if (error.code === "reverification_required") redirect(`${hostedHref("/account", frame.flow, { reverify: "1" })}#reverify`);
  if (error.code === "session_pending") {
    const gate = (error.properties?.currentGate as { key: GateKey } | null | undefined) ?? undefined;
    redirect(nextStepUrl(frame, { id: "", status: "PENDING", gates: gate ? [gate] : [], currentGate: gate }));
  }
}

/**
 * Runs a Client API operation from a hosted form, through the same pipeline as the
 * route kit (auth level, schemas, declared rate limits, handler): the form can do
 * nothing the API would refuse. The operation's session effects become cookies of
 * the action's response, with the same attributes.
 */
export function runOperationAction<E extends AnyEndpoint, S extends FormState = FormState>(
  form: FormData,
  target: E,
  options: {
    describe: Describe;
    input: (context: ActionContext) => RawInput;
    /** A check of the form's own before the operation (e.g. "tick the box"); a state stops the action. */
    before?: (context: ActionContext) => Promise<FormState | null> | FormState | null;
    /** The answer to the form; a state with more than FormState's fields carries data the form shows (e.g. recovery codes). */
    then: (result: ResultOf<E>, context: ActionContext) => Promise<S>;
  },
): Promise<S | FormState> {
  return runHostedAction(form, options.describe, async (context) => {
    const stop = await options.before?.(context);
    if (stop) return stop;
    const effects = new ResponseEffects();
    const result = await executeOperation(target, hostedCaller(context, context.requestId), options.input(context), effects);
    if (result instanceof SeeOther || result instanceof StreamedBody) throw new Error(`${target.operation.operationId} answered a redirect or a stream to a hosted form`);
    await applySetCookies(sessionSetCookies(effects, context.request));
    return options.then(result as ResultOf<E>, context);
  });
}
