import { listSigningKeysEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/signing-keys — the signing keys' public material
export const GET = route(listSigningKeysEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
