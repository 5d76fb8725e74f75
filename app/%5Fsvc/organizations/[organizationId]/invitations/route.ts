import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { inviteToOrganizationEndpoint, listOrganizationInvitationsEndpoint } from "@/lib/organizations/invitations-endpoints";

// GET /_svc/organizations/{organizationId}/invitations — the organization's invitations
export const GET = route(listOrganizationInvitationsEndpoint);

// POST /_svc/organizations/{organizationId}/invitations — invite by email and role
export const POST = route(inviteToOrganizationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
