import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { acceptOrganizationInvitationEndpoint } from "@/lib/organizations/invitations-endpoints";

// POST /_svc/organizations/invitations/accept — join with the invitation's role
export const POST = route(acceptOrganizationInvitationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
