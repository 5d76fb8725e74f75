import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { revokeInvitation } from "@/lib/organizations/invitations";
import { serverRevokeInvitationOperation } from "@/lib/organizations/invitations-operations";

// DELETE /api/server/v1/organizations/{organizationId}/invitations/{invitationId} — revoke an invitation
export const DELETE = serverRoute(serverRevokeInvitationOperation, ({ environment, params, actor }) =>
  revokeInvitation(getDb(), environment, params.organizationId, params.invitationId, { actor, member: null }),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
