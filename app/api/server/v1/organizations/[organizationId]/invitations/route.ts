import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { inviteToOrganization, listInvitations } from "@/lib/organizations/invitations";
import { serverInviteToOrganizationOperation, serverListInvitationsOperation } from "@/lib/organizations/invitations-operations";

// GET /api/server/v1/organizations/{organizationId}/invitations — the organization's invitations
export const GET = serverRoute(serverListInvitationsOperation, ({ environment, params, query }) =>
  listInvitations(getDb(), environment.id, params.organizationId, query),
);

// POST /api/server/v1/organizations/{organizationId}/invitations — invite by email and role
export const POST = serverRoute(serverInviteToOrganizationOperation, ({ environment, params, body, actor, context }) =>
  inviteToOrganization(getDb(), environment, params.organizationId, body, { actor, member: null }, context.host),
);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
