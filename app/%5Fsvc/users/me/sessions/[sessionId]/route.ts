import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { revokeMySessionEndpoint } from "@/lib/users/me-endpoints";

// DELETE /_svc/users/me/sessions/{sessionId} — sign out another device
export const DELETE = route(revokeMySessionEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
