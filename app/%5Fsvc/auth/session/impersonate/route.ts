import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { impersonateEndpoint } from "@/lib/impersonation/endpoints";

// POST /_svc/auth/session/impersonate — open an impersonation session with a one-time token
export const POST = route(impersonateEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
