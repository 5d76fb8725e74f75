import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverResendInvitationEndpoint } from "@/lib/organizations/server-endpoints";

// POST /api/server/v1/organizations/{organizationId}/invitations/{invitationId}/resend — a new link; the old one dies
export const POST = route(serverResendInvitationEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
