import type { EnvironmentContext } from "../environments/context";
import { executeOperation } from "../http/pipeline";
import type { OperatorIdentity } from "../operation/caller";
import type { Endpoint, RawInput } from "../operation/endpoint";
import type { Infer } from "../operation/operation";
import type { RequestContext } from "../operation/request-context";
import { ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import { StreamedBody } from "../operation/streamed-body";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Server API or dashboard-only endpoint, whatever its schemas
type ServerEndpoint<R> = Endpoint<any, any, any, R extends undefined ? undefined : any, "server" | "operator">;

/**
 * Runs a Server API operation for a dashboard operator acting in one environment,
 * through the very pipeline the route kit uses (lib/http/pipeline.ts): the same
 * input schemas, the same rules and errors, and the operator's role checked against
 * the operation's declared `operatorPermission` (a viewer reads, never writes). The
 * dashboard's forms (runOperatorAction) and pages (loadOperation) both come here,
 * so an operator can never do through a form what the Server API would refuse.
 * Events the operation writes name the operator as their actor. A dashboard-only
 * operation (auth `operator`: applications and environments) runs in no environment
 * (null), through the same pipeline and the same role check.
 */
export async function runOperatorOperation<E extends ServerEndpoint<unknown>>(
  target: E,
  operator: OperatorIdentity,
  environment: EnvironmentContext | null,
  input: RawInput,
  context: RequestContext,
): Promise<Exclude<Infer<E["operation"]["response"]["schema"]>, SeeOther>> {
  const result = await executeOperation(target, { environment, session: null, operator, context }, input, new ResponseEffects());
  // Server API operations answer with a body, never a browser redirect.
  if (result instanceof SeeOther) throw new Error(`${target.operation.operationId} answered a redirect to an operator`);
  // A stream (an export) is for HTTP clients; the dashboard links to the route instead.
  if (result instanceof StreamedBody) throw new Error(`${target.operation.operationId} answered a stream to an operator`);
  return result as Exclude<Infer<E["operation"]["response"]["schema"]>, SeeOther>;
}
