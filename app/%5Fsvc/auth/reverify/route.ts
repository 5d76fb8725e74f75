import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { reverifyEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/reverify — prove a factor again for sensitive operations
export const POST = route(reverifyEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
