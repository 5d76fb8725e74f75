import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { bootProbeEndpoint } from "@/lib/auth/endpoints";

// GET /_svc/client — boot probe: always 200, `authenticated` says whether a session is live
export const GET = route(bootProbeEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
