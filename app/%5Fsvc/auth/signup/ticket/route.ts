import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { signUpFromTicketEndpoint } from "@/lib/organizations/invitations-endpoints";

// POST /_svc/auth/signup/ticket — sign up from an invitation: verified user, member and session at once
export const POST = route(signUpFromTicketEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
