import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { getJwksEndpoint } from "@/lib/tokens/client-endpoints";

// GET /_svc/.well-known/jwks.json — the environment's public signing keys
export const GET = route(getJwksEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
