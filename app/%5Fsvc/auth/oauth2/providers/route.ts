import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { listPublicOAuthProvidersEndpoint } from "@/lib/oauth/client-endpoints";

// GET /_svc/auth/oauth2/providers — the enabled sign-in providers (no secrets)
export const GET = route(listPublicOAuthProvidersEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
