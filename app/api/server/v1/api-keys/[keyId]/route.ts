import { revokeSecretKeyEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// DELETE /api/server/v1/api-keys/{keyId} — revoke a secret key (never the last active one)
export const DELETE = route(revokeSecretKeyEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
