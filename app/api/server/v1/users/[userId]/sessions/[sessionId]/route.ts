import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { revokeUserSessionOperation } from "@/lib/sessions/operations";
import { revokeUserSession } from "@/lib/sessions/user-sessions";

// DELETE /api/server/v1/users/{userId}/sessions/{sessionId} — revoke one session (idempotent)
export const DELETE = serverRoute(revokeUserSessionOperation, async ({ environment, params, actor }) => {
  await revokeUserSession(getDb(), environment.id, params.userId, params.sessionId, actor);
  return undefined;
});

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
