import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { refreshTokenEndpoint } from "@/lib/tokens/client-endpoints";

// POST /_svc/auth/token — a fresh access token for the current session
export const POST = route(refreshTokenEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
