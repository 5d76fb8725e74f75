import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { issueImpersonationToken } from "./impersonation-tokens";
import { createImpersonationTokenOperation } from "./operations";

/**
 * The Server API's impersonation operation with its implementation: the route file
 * serves it over HTTP and the dashboard runs it, through one pipeline.
 */
// POST /api/server/v1/impersonation-tokens — mint a one-time token to act as a user
export const createImpersonationTokenEndpoint = endpoint(createImpersonationTokenOperation, ({ environment, caller, body, actor }) =>
  issueImpersonationToken(getDb(), environment, caller, body, actor));
