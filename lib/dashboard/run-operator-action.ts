import { unstable_rethrow } from "next/navigation";
import { AppError, type ErrorCode } from "../errors";
import { serviceUnavailableFor } from "../http/database-faults";
import { errorState } from "../hosted/form-errors";
import type { FormState } from "../hosted/form-state";
import type { RawInput } from "../operation/endpoint";
import { dashboardRequestContext } from "./dashboard-request";
import { environmentForOperation } from "./environments";
import { dashboardCopy } from "./i18n/messages";
import { currentOperator, signInRedirect } from "./operator-session";
import { runOperatorOperation } from "./run-operator-operation";

type ServerEndpoint = Parameters<typeof runOperatorOperation>[0];
type ResultOf<E extends ServerEndpoint> = Awaited<ReturnType<typeof runOperatorOperation<E>>>;

/**
 * A dashboard form's server action: the Server API operation run for the signed-in
 * operator in the environment the form names, through runOperatorOperation (the
 * same schemas, rules and errors as the API, and the operator's role checked against
 * the operation's declared permission), its failures turned into the form's state in
 * the dashboard's language. A form posted without the page, by a signed-out browser,
 * goes to the sign-in page; one by a role that may not is refused like the API
 * refuses it. Writes are not retried: a dropped connection is "try again".
 */
export async function runOperatorAction<E extends ServerEndpoint>(
  target: E,
  input: RawInput,
  options: {
    /** The environment the form acts in; null for a dashboard-only operation (applications). */
    environmentId: string | null;
    /** The form's input names: errors for other fields become the form-level message. */
    fields: readonly string[];
    /** Non-secret values echoed back to a form re-rendered without JavaScript. */
    values?: Record<string, string>;
    then: (result: ResultOf<E>) => FormState | Promise<FormState>;
    /** This form's wording for an error code (e.g. 409 last_secret_key), over the shared wording. */
    messages?: Partial<Record<ErrorCode, string>>;
    /** This form's wording for any validation error of a field. */
    fieldMessages?: Record<string, string>;
  },
): Promise<FormState> {
  const operator = (await currentOperator()) ?? (await signInRedirect());
  const { t, shared } = await dashboardCopy();
  const context = await dashboardRequestContext("POST");
  const messages: Partial<Record<ErrorCode, string>> = {
    forbidden: t.errors.forbidden,
    environment_not_found: t.errors.notFound,
    operator_second_factor_required: t.errors.secondFactorRequired,
    ...options.messages,
  };
  try {
    const environment = await environmentForOperation(target.operation.auth, options.environmentId);
    return await options.then(await runOperatorOperation(target, operator, environment, input, context));
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof AppError && error.code === "unauthorized") await signInRedirect();
    return errorState(serviceUnavailableFor(error, context.requestId) ?? error, shared, {
      fields: options.fields,
      values: options.values,
      messages,
      fieldMessages: options.fieldMessages,
      requestId: context.requestId,
    });
  }
}
