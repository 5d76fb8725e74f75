import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { startMfaEnrollmentEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/auth/mfa/enroll — set up an authenticator app during sign-in
export const POST = route(startMfaEnrollmentEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
