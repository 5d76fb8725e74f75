import { endpoint } from "../operation/endpoint";
import { inviteToOrganization, listInvitations, resendInvitation, revokeInvitation } from "./invitations";
import { serverInviteToOrganizationOperation, serverListInvitationsOperation, serverResendInvitationOperation, serverRevokeInvitationOperation } from "./invitations-operations";
import { getMember, listMembers, removeMember, updateMemberRole } from "./members";
import { addMembership } from "./memberships";
import { createOrganization, deleteOrganization, getOrganizationOrThrow, listOrganizations, toServerOrganization, updateOrganization } from "./organizations";
import { replaceRoleSet } from "./role-set";
import { readRoleSet } from "./roles";
import { serverAddMemberOperation, serverCreateOrganizationOperation, serverDeleteOrganizationOperation, serverGetOrganizationOperation, serverListMembersOperation, serverListOrganizationsOperation, serverListRolesOperation, serverRemoveMemberOperation, serverReplaceRolesOperation, serverUpdateMemberOperation, serverUpdateOrganizationOperation } from "./server-operations";
import { getDb } from "@/db/client";

/**
 * The Server API's organizations operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// POST /api/server/v1/organizations/{organizationId}/invitations/{invitationId}/resend — a new link; the old one dies
export const serverResendInvitationEndpoint = endpoint(serverResendInvitationOperation, ({ environment, params, caller, actor, context }) =>
  resendInvitation(getDb(), environment, params.organizationId, params.invitationId, { actor, caller }, context.host));

// DELETE /api/server/v1/organizations/{organizationId}/invitations/{invitationId} — revoke an invitation
export const serverRevokeInvitationEndpoint = endpoint(serverRevokeInvitationOperation, ({ environment, params, caller, actor }) =>
  revokeInvitation(getDb(), environment, params.organizationId, params.invitationId, { actor, caller }));

// GET /api/server/v1/organizations/{organizationId}/invitations — the organization's invitations
export const serverListInvitationsEndpoint = endpoint(serverListInvitationsOperation, ({ environment, params, query }) =>
  listInvitations(getDb(), environment.id, params.organizationId, query));

// POST /api/server/v1/organizations/{organizationId}/invitations — invite by email and role
export const serverInviteToOrganizationEndpoint = endpoint(serverInviteToOrganizationOperation, ({ environment, params, body, caller, actor, context }) =>
  inviteToOrganization(getDb(), environment, params.organizationId, body, { actor, caller }, context.host));

// PATCH /api/server/v1/organizations/{organizationId}/members/{userId} — change a member's role
export const serverUpdateMemberEndpoint = endpoint(serverUpdateMemberOperation, ({ environment, params, body, caller, actor }) =>
  updateMemberRole(getDb(), environment, params.organizationId, params.userId, body.role, caller, actor));

// DELETE /api/server/v1/organizations/{organizationId}/members/{userId} — remove a member
export const serverRemoveMemberEndpoint = endpoint(serverRemoveMemberOperation, async ({ environment, params, caller, actor }) => {
  await removeMember(getDb(), environment.id, params.organizationId, params.userId, caller, actor);
  return undefined;
});

// GET /api/server/v1/organizations/{organizationId}/members — one page of members
export const serverListMembersEndpoint = endpoint(serverListMembersOperation, async ({ environment, params, query }) => {
  await getOrganizationOrThrow(getDb(), environment.id, params.organizationId);
  return listMembers(getDb(), environment.id, params.organizationId, query);
});

// POST /api/server/v1/organizations/{organizationId}/members — add a user with a role
export const serverAddMemberEndpoint = endpoint(serverAddMemberOperation, async ({ environment, params, body, actor }) => {
  const db = getDb();
  await db.transaction((tx) => addMembership(tx, environment, { organizationId: params.organizationId, ...body }, actor));
  return getMember(db, environment.id, params.organizationId, body.userId);
});

// GET /api/server/v1/organizations/{organizationId} — get an organization
export const serverGetOrganizationEndpoint = endpoint(serverGetOrganizationOperation, async ({ environment, params }) =>
  toServerOrganization(await getOrganizationOrThrow(getDb(), environment.id, params.organizationId)));

// PATCH /api/server/v1/organizations/{organizationId} — update name, slug, logo, metadata
export const serverUpdateOrganizationEndpoint = endpoint(serverUpdateOrganizationOperation, async ({ environment, params, body, caller, actor }) =>
  toServerOrganization(await updateOrganization(getDb(), environment.id, params.organizationId, body, caller, actor)));

// DELETE /api/server/v1/organizations/{organizationId} — delete with its memberships and invitations
export const serverDeleteOrganizationEndpoint = endpoint(serverDeleteOrganizationOperation, async ({ environment, params, caller, actor }) =>
  toServerOrganization(await deleteOrganization(getDb(), environment.id, params.organizationId, caller, actor)));

// GET /api/server/v1/organizations — one page of the environment's organizations
export const serverListOrganizationsEndpoint = endpoint(serverListOrganizationsOperation, ({ environment, query }) => listOrganizations(getDb(), environment.id, query));

// POST /api/server/v1/organizations — create an organization (createdBy becomes its owner)
export const serverCreateOrganizationEndpoint = endpoint(serverCreateOrganizationOperation, async ({ environment, body, actor }) => {
  const { createdBy, ...input } = body;
  const { row } = await createOrganization(getDb(), environment, input, createdBy ?? null, actor);
  return toServerOrganization(row);
});

// GET /api/server/v1/roles — the environment's organization role set
export const serverListRolesEndpoint = endpoint(serverListRolesOperation, async ({ environment }) => ({ items: await readRoleSet(getDb(), environment.id) }));

// PUT /api/server/v1/roles — replace the role set whole
export const serverReplaceRolesEndpoint = endpoint(serverReplaceRolesOperation, async ({ environment, body, actor }) => ({
  items: await replaceRoleSet(getDb(), environment.id, body.items, actor),
}));
