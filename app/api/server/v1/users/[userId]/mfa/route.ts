import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { resetUserMfaEndpoint } from "@/lib/users/server-endpoints";

// DELETE /api/server/v1/users/{userId}/mfa — remove every second factor and revoke every session
export const DELETE = route(resetUserMfaEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
