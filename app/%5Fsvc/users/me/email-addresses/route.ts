import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { addEmailAddressEndpoint, listEmailAddressesEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/email-addresses — the user's addresses
export const GET = route(listEmailAddressesEndpoint);

// POST /_svc/users/me/email-addresses — add an address and email it a verification link
export const POST = route(addEmailAddressEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
