import { cookies, headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import type { Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { serviceUnavailableFor } from "../http/database-faults";
import type { AuthLevel } from "../http/operation";
import { requestIdFor } from "../http/request-id";
import { assertRecentlyVerified } from "../sessions/reverification";
import type { ActiveSession } from "../sessions/resolve-session";
import { errorState, type ErrorOptions } from "./form-errors";
import type { FormState } from "./form-state";
import { loadActionContext, type HostedContext } from "./hosted-context";
import { messagesFor, type Messages } from "./i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "./locale";
import { hostedHref, tenantFromForm, type Tenant } from "./tenant";

export interface ActionContext extends HostedContext {
  tenant: Tenant;
  requestId: string;
}

export interface SessionActionContext extends ActionContext {
  session: ActiveSession;
  actor: Actor;
}

type Describe = (t: Messages) => Omit<ErrorOptions, "requestId">;

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
 * (or the Host) exactly as a page does, run the lib call, and turn failures into
 * the form's state. Next's redirect/notFound signals pass through untouched. A lost
 * database connection is the form's "try again" message, never a 500: the context
 * (a read) was already retried once, and the action's own writes are not retried
 * (lib/http/database-faults.ts).
 */
export async function runHostedAction(
  form: FormData,
  describe: Describe,
  run: (context: ActionContext) => Promise<FormState>,
): Promise<FormState> {
  const tenant = tenantFromForm(form);
  let context: HostedContext | null;
  try {
    context = await loadActionContext(tenant.publishableKey);
  } catch (error) {
    if (!serviceUnavailableFor(error, "hosted-action")) throw error;
    return contextlessErrorState((t) => t.errors.service_unavailable);
  }
  if (!context) return contextlessErrorState((t) => t.notFound.title);
  const requestId = requestIdFor(context.request);
  try {
    return await run({ ...context, tenant, requestId });
  } catch (error) {
    unstable_rethrow(error);
    return errorState(serviceUnavailableFor(error, requestId) ?? error, context.t, { ...describe(context.t), requestId });
  }
}

/**
 * An action for a signed-in user, with the same auth level as the Client API
 * operation it mirrors: no session goes to sign-in; a `sensitiveSession`
 * operation without a recent sign-in goes to the account page's password prompt.
 */
export function runSessionAction(
  form: FormData,
  operation: { auth: AuthLevel },
  describe: Describe,
  run: (context: SessionActionContext) => Promise<FormState>,
): Promise<FormState> {
  return runHostedAction(form, describe, async (context) => {
    const { session } = context;
    if (!session) redirect(hostedHref("/sign-in", { ...context.tenant, redirectUrl: "/account" }));
    try {
      if (operation.auth === "sensitiveSession") assertRecentlyVerified(context.environment, session);
      return await run({ ...context, session, actor: { type: "user", id: session.user.id, requestId: context.requestId } });
    } catch (error) {
      if (error instanceof AppError && error.code === "reverification_required") {
        redirect(`${hostedHref("/account", context.tenant, { reverify: "1" })}#reverify`);
      }
      throw error;
    }
  });
}
