import { AppError } from "../errors";
import { retryReadOnce, serviceUnavailableFor } from "../http/database-faults";
import type { RawInput } from "../operation/endpoint";
import { dashboardRequestContext } from "./dashboard-request";
import { environmentForOperation } from "./environments";
import { requireOperator } from "./operator-session";
import { runOperatorOperation } from "./run-operator-operation";

type ServerEndpoint = Parameters<typeof runOperatorOperation>[0];
type ResultOf<E extends ServerEndpoint> = Awaited<ReturnType<typeof runOperatorOperation<E>>>;

/**
 * What a dashboard page loaded: the operation's answer, or why not, for the page to
 * show in place (a viewer on a page that needs more, an environment deleted meanwhile).
 */
export type LoadResult<T> =
  | { kind: "ok"; data: T }
  | { kind: "forbidden"; error: AppError }
  | { kind: "not_found"; error: AppError };

/**
 * A dashboard page's read (server components): a Server API operation run for the
 * signed-in operator in the chosen environment, through runOperatorOperation, so
 * the operation's own rules and its declared operator permission decide. Signed out
 * (or a session that has ended) redirects to the sign-in page; a refusal is the page's
 * error state. Reads are retried once on a dropped connection, like the hosted pages'.
 */
export async function loadOperation<E extends ServerEndpoint>(
  target: E,
  input: RawInput,
  /** The chosen environment; null for a dashboard-only operation, which spans them (applications). */
  options: { environmentId: string | null },
): Promise<LoadResult<ResultOf<E>>> {
  // A page renders on every GET and prefetch, and its read may run twice: it may load
  // only what an operation declares a read (a write belongs in runOperatorAction).
  if (target.operation.operatorPermission !== "read") {
    throw new Error(`${target.operation.operationId} is not a read; a dashboard page cannot load it`);
  }
  const operator = await requireOperator();
  const context = await dashboardRequestContext("GET");
  try {
    const environment = await environmentForOperation(target.operation.auth, options.environmentId);
    const data = await retryReadOnce(() => runOperatorOperation(target, operator, environment, input, context));
    return { kind: "ok", data };
  } catch (error) {
    if (error instanceof AppError && error.code === "forbidden") return { kind: "forbidden", error };
    if (error instanceof AppError && error.code === "resource_not_found") return { kind: "not_found", error };
    // Next logs what a page throws: the AppError's one line, not the failed query and its parameters.
    throw serviceUnavailableFor(error, context.requestId) ?? error;
  }
}
