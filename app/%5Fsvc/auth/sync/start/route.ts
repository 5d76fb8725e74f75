import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { startSatelliteSyncEndpoint } from "@/lib/tickets/endpoints";

// GET /_svc/auth/sync/start — on a satellite host: set the sync nonce cookie, then on to the primary's /sync
export const GET = route(startSatelliteSyncEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
