import { endpoint } from "../operation/endpoint";
import { listUserSessionsOperation, revokeAllUserSessionsOperation, revokeUserSessionOperation } from "./operations";
import { listUserSessions, revokeAllSessionsOfUser, revokeUserSession } from "./user-sessions";
import { getDb } from "@/db/client";

/**
 * The Server API's sessions operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// DELETE /api/server/v1/users/{userId}/sessions/{sessionId} — revoke one session (idempotent)
export const revokeUserSessionEndpoint = endpoint(revokeUserSessionOperation, async ({ environment, params, actor }) => {
  await revokeUserSession(getDb(), environment.id, params.userId, params.sessionId, actor);
  return undefined;
});

// GET /api/server/v1/users/{userId}/sessions — list a user's sessions
export const listUserSessionsEndpoint = endpoint(listUserSessionsOperation, ({ environment, params, query }) =>
  listUserSessions(getDb(), environment.id, params.userId, query));

// DELETE /api/server/v1/users/{userId}/sessions — revoke all of them
export const revokeAllUserSessionsEndpoint = endpoint(revokeAllUserSessionsOperation, ({ environment, params, actor }) =>
  revokeAllSessionsOfUser(getDb(), environment.id, params.userId, actor));
