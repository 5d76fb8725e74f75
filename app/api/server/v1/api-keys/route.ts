import { listSecretKeysEndpoint, createSecretKeyEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/api-keys — the environment's secret keys, never a key itself
export const GET = route(listSecretKeysEndpoint);

// POST /api/server/v1/api-keys — a new secret key, shown in this answer only
export const POST = route(createSecretKeyEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
