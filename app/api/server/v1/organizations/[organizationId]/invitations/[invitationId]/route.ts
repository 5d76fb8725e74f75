import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverRevokeInvitationEndpoint } from "@/lib/organizations/server-endpoints";

// DELETE /api/server/v1/organizations/{organizationId}/invitations/{invitationId} — revoke an invitation
export const DELETE = route(serverRevokeInvitationEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
