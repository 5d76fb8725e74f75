import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { promoteEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/email-addresses/{id}/primary — make a verified address primary
export const POST = route(promoteEmailAddressEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
