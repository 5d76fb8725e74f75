import { clientPreflight, route } from "@/lib/http/route";
import { promoteEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/email-addresses/{id}/primary — make a verified address primary
export const POST = route(promoteEmailAddressEndpoint);

export const OPTIONS = clientPreflight;
