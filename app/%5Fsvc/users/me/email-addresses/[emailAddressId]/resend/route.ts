import { clientPreflight, route } from "@/lib/http/route";
import { resendEmailAddressEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/email-addresses/{id}/resend — re-send the verification link
export const POST = route(resendEmailAddressEndpoint);

export const OPTIONS = clientPreflight;
