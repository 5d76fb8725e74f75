import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { startTotpEnrollmentEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/users/me/mfa/totp — start setting up an authenticator app
export const POST = route(startTotpEnrollmentEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
