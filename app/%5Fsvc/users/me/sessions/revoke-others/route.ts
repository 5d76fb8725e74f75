import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { revokeOtherSessionsEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/sessions/revoke-others — sign out everywhere else
export const POST = route(revokeOtherSessionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
