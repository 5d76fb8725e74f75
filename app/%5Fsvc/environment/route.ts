import { getEnvironmentEndpoint } from "@/lib/auth/client-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";

// GET /_svc/environment — public settings an SDK needs
export const GET = route(getEnvironmentEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
