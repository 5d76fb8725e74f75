import { hostedRequest } from "../hosted/action-request";
import { requestContextOf } from "../http/request-context";
import { requestIdFor } from "../http/request-id";
import type { RequestContext } from "../operation/request-context";

/**
 * The plain request facts (client IP as the route kit trusts it, user agent, a request
 * id) of the page render or server action in progress, for the operations it runs.
 */
export async function dashboardRequestContext(method: "GET" | "POST"): Promise<RequestContext> {
  // No `pk`: the dashboard acts in the environment an operator chose, never one a request names.
  const request = await hostedRequest(null, method);
  return requestContextOf(request, requestIdFor(request));
}
