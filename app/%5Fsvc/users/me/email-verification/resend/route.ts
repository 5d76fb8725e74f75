import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { resendVerificationEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/email-verification/resend — email a link that verifies the primary address
export const POST = route(resendVerificationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
