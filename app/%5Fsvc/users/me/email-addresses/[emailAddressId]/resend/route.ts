import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { resendEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/email-addresses/{id}/resend — re-send the verification link
export const POST = route(resendEmailAddressEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
