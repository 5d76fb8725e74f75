import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { confirmMfaEnrollmentEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/auth/mfa/enroll/confirm — confirm the app and finish signing in
export const POST = route(confirmMfaEnrollmentEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
