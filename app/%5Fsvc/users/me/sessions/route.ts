import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listMySessionsEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/sessions — the user's active sessions
export const GET = route(listMySessionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
