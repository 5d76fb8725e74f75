import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { resendOrganizationInvitationEndpoint } from "@/lib/organizations/invitations-endpoints";

// POST /_svc/organizations/{organizationId}/invitations/{invitationId}/resend — a new link; the old one dies
export const POST = route(resendOrganizationInvitationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
