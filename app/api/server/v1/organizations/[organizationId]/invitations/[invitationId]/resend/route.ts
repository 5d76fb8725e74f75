import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { resendInvitation } from "@/lib/organizations/invitations";
import { serverResendInvitationOperation } from "@/lib/organizations/invitations-operations";

// POST /api/server/v1/organizations/{organizationId}/invitations/{invitationId}/resend — a new link; the old one dies
export const POST = serverRoute(serverResendInvitationOperation, ({ environment, params, actor, context }) =>
  resendInvitation(getDb(), environment, params.organizationId, params.invitationId, { actor, member: null }, context.host),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
