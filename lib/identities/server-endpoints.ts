import { endpoint } from "../operation/endpoint";
import { removeUserIdentity } from "./manage-identities";
import { removeUserIdentityOperation } from "./operations";
import { getDb } from "@/db/client";

/**
 * The Server API's identities operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// DELETE /api/server/v1/users/{userId}/identities/{identityId} — disconnect one of a user's provider accounts (audited)
export const removeUserIdentityEndpoint = endpoint(removeUserIdentityOperation, ({ environment, params, actor }) =>
  removeUserIdentity(getDb(), environment, params.userId, params.identityId, actor));
