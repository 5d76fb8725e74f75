import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { satelliteSyncEndpoint } from "@/lib/tickets/endpoints";

// GET /_svc/auth/sync — hand the session on the primary host to a satellite domain
export const GET = route(satelliteSyncEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
