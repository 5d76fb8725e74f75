import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { listUserSessionsOperation, revokeAllUserSessionsOperation } from "@/lib/sessions/operations";
import { listUserSessions, revokeAllSessionsOfUser } from "@/lib/sessions/user-sessions";

// GET /api/server/v1/users/{userId}/sessions — list a user's sessions
export const GET = serverRoute(listUserSessionsOperation, ({ environment, params, query }) =>
  listUserSessions(getDb(), environment.id, params.userId, query),
);

// DELETE /api/server/v1/users/{userId}/sessions — revoke all of them
export const DELETE = serverRoute(revokeAllUserSessionsOperation, ({ environment, params, actor }) =>
  revokeAllSessionsOfUser(getDb(), environment.id, params.userId, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ GET, DELETE });
