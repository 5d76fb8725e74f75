import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { revokeUserSessionEndpoint } from "@/lib/sessions/server-endpoints";

// DELETE /api/server/v1/users/{userId}/sessions/{sessionId} — revoke one session (idempotent)
export const DELETE = route(revokeUserSessionEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
