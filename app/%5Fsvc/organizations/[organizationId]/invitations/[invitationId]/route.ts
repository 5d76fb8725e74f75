import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { revokeOrganizationInvitationEndpoint } from "@/lib/organizations/invitations-endpoints";

// DELETE /_svc/organizations/{organizationId}/invitations/{invitationId} — revoke an invitation
export const DELETE = route(revokeOrganizationInvitationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
