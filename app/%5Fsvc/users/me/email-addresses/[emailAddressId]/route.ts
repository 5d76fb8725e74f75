import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { removeEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// DELETE /_svc/users/me/email-addresses/{id} — remove a non-primary address (recent sign-in required)
export const DELETE = route(removeEmailAddressEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
