import { clientPreflight, route } from "@/lib/http/route";
import { verifyEmailLinkEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/email-addresses/verify?token= — the emailed verification link
export const GET = route(verifyEmailLinkEndpoint);

export const OPTIONS = clientPreflight;
