import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverInviteToOrganizationEndpoint, serverListInvitationsEndpoint } from "@/lib/organizations/server-endpoints";

// GET /api/server/v1/organizations/{organizationId}/invitations — the organization's invitations
export const GET = route(serverListInvitationsEndpoint);

// POST /api/server/v1/organizations/{organizationId}/invitations — invite by email and role
export const POST = route(serverInviteToOrganizationEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
