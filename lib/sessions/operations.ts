import { defineOperation } from "../operation/operation";
import { pageQuery, userIdParams } from "../users/schemas";
import { revokeAllResultSchema, sessionPageSchema, sessionParams } from "./schemas";

const tags = ["Sessions"];
const ON_USER = ["invalid_request", "unauthorized", "environment_mismatch", "resource_not_found"] as const;

export const listUserSessionsOperation = defineOperation({
  operationId: "listUserSessions",
  method: "get",
  path: "/api/server/v1/users/{userId}/sessions",
  summary: "List a user's sessions",
  description: "All sessions of the user (active, revoked and expired), newest first, keyset-paginated.",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: userIdParams,
  query: pageQuery,
  response: { status: 200, description: "One page of sessions.", schema: sessionPageSchema },
  errors: [...ON_USER],
});

export const revokeAllUserSessionsOperation = defineOperation({
  operationId: "revokeAllUserSessions",
  method: "delete",
  path: "/api/server/v1/users/{userId}/sessions",
  summary: "Revoke all of a user's sessions",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  response: { status: 200, description: "How many active sessions were revoked.", schema: revokeAllResultSchema },
  errors: [...ON_USER],
});

export const revokeUserSessionOperation = defineOperation({
  operationId: "revokeUserSession",
  method: "delete",
  path: "/api/server/v1/users/{userId}/sessions/{sessionId}",
  summary: "Revoke one session",
  description: "Idempotent: 204 also when the session was already revoked or has expired. A session of another user is 404.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: sessionParams,
  response: { status: 204, description: "The session is revoked." },
  errors: [...ON_USER],
});
