import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { openVerificationLinkEndpoint, verifyEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/email-addresses/verify?token= — the emailed link: changes nothing (browsers land on the confirmation page)
export const GET = route(openVerificationLinkEndpoint);

// POST /_svc/users/me/email-addresses/verify — confirm the link: verifies the address, once
export const POST = route(verifyEmailAddressEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
