import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { confirmTotpEnrollmentEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/users/me/mfa/totp/confirm — turn the authenticator app on with its first code
export const POST = route(confirmTotpEnrollmentEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
