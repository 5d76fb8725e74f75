import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { listUserSessionsEndpoint, revokeAllUserSessionsEndpoint } from "@/lib/sessions/server-endpoints";

// GET /api/server/v1/users/{userId}/sessions — list a user's sessions
export const GET = route(listUserSessionsEndpoint);

// DELETE /api/server/v1/users/{userId}/sessions — revoke all of them
export const DELETE = route(revokeAllUserSessionsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ GET, DELETE });
