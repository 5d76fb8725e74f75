import { defineOperation } from "../operation/operation";
import {
  clientOrganizationSchema,
  createOrganizationBody,
  memberPageQuery,
  memberPageSchema,
  memberParams,
  memberSchema,
  myOrganizationListSchema,
  organizationIdParams,
  roleBody,
  roleListSchema,
  updateMyOrganizationBody,
} from "./schemas";

/*
 * The Client API organization operations. `organization` (lib/http/operation.ts)
 * makes the pipeline refuse them while organizations are off, resolve the caller's
 * membership (non-members get 404) and check the declared permission (403).
 */

const tags = ["Client: organizations"];
const CLIENT = ["environment_not_found", "origin_not_allowed", "unauthorized", "session_pending", "forbidden"] as const;
const IN_ORGANIZATION = [...CLIENT, "invalid_request", "resource_not_found"] as const;

export const listMyOrganizationsOperation = defineOperation({
  operationId: "listMyOrganizations",
  method: "get",
  path: "/_svc/organizations",
  summary: "List my organizations",
  description: "The organizations the signed-in user belongs to, oldest membership first, with the user's role in each.",
  tags,
  auth: "session",
  organization: {},
  response: { status: 200, description: "The user's memberships.", schema: myOrganizationListSchema },
  errors: [...CLIENT],
});

export const createOrganizationOperation = defineOperation({
  operationId: "createOrganization",
  method: "post",
  path: "/_svc/organizations",
  summary: "Create an organization",
  description: "Creates an organization (its slug derived from the name, unique in the environment) with the caller as its owner.",
  tags,
  auth: "session",
  organization: {},
  body: createOrganizationBody,
  response: { status: 201, description: "The organization, with the caller's role.", schema: clientOrganizationSchema },
  errors: [...CLIENT, "invalid_request", "organization_limit_reached"],
});

export const getMyOrganizationOperation = defineOperation({
  operationId: "getMyOrganization",
  method: "get",
  path: "/_svc/organizations/{organizationId}",
  summary: "Get an organization",
  description: "The organization with the caller's role and permissions. 404 unless the caller is a member.",
  tags,
  auth: "session",
  organization: { param: "organizationId" },
  params: organizationIdParams,
  response: { status: 200, description: "The organization.", schema: clientOrganizationSchema },
  errors: [...IN_ORGANIZATION],
});

export const updateMyOrganizationOperation = defineOperation({
  operationId: "updateMyOrganization",
  method: "patch",
  path: "/_svc/organizations/{organizationId}",
  summary: "Update an organization's settings",
  description: "Needs org:settings:manage. Changes the name, slug or logo URL (at least one; null removes the logo). A slug taken in the environment is 409 identifier_exists.",
  tags,
  auth: "session",
  organization: { param: "organizationId", permission: "org:settings:manage" },
  params: organizationIdParams,
  body: updateMyOrganizationBody,
  response: { status: 200, description: "The organization, with the caller's role.", schema: clientOrganizationSchema },
  errors: [...IN_ORGANIZATION, "identifier_exists", "payload_too_large"],
});

/*
 * Deleting ends every member's access at once and cannot be undone, so it asks for
 * a recent sign-in like the account's own deletion (STYLE rule 2), on top of the permission.
 */
export const deleteMyOrganizationOperation = defineOperation({
  operationId: "deleteMyOrganization",
  method: "delete",
  path: "/_svc/organizations/{organizationId}",
  summary: "Delete an organization",
  description:
    "Needs org:settings:manage, the owner role (deleting removes the owners with it, and only an owner removes an owner) and a recent sign-in (else 403 reverification_required). Deletes the organization with its memberships and invitations; sessions that had it active get no org claims from their next token on.",
  tags,
  auth: "sensitiveSession",
  organization: { param: "organizationId", permission: "org:settings:manage" },
  params: organizationIdParams,
  response: { status: 204, description: "Deleted." },
  errors: [...IN_ORGANIZATION, "reverification_required"],
});

export const listOrganizationRolesOperation = defineOperation({
  operationId: "listOrganizationRoles",
  method: "get",
  path: "/_svc/organizations/{organizationId}/roles",
  summary: "List assignable roles",
  description: "The environment's role set, in display order.",
  tags,
  auth: "session",
  organization: { param: "organizationId" },
  params: organizationIdParams,
  response: { status: 200, description: "The roles.", schema: roleListSchema },
  errors: [...IN_ORGANIZATION],
});

export const listOrganizationMembersOperation = defineOperation({
  operationId: "listOrganizationMembers",
  method: "get",
  path: "/_svc/organizations/{organizationId}/members",
  summary: "List members",
  description: "Members oldest first, by keyset (`cursor` is the previous page's nextCursor); `query` keeps those whose name or email contains it.",
  tags,
  auth: "session",
  organization: { param: "organizationId" },
  params: organizationIdParams,
  query: memberPageQuery,
  response: { status: 200, description: "One page of members.", schema: memberPageSchema },
  errors: [...IN_ORGANIZATION],
});

export const updateMemberRoleOperation = defineOperation({
  operationId: "updateOrganizationMemberRole",
  method: "patch",
  path: "/_svc/organizations/{organizationId}/members/{memberUserId}",
  summary: "Change a member's role",
  description:
    "Needs org:members:manage. Below owner, a member gives or changes only roles whose permissions are all among their own (403 otherwise); only an owner makes or changes an owner, from a recent sign-in (403 reverification_required otherwise, as deleting the organization asks); the last owner cannot be demoted (409 last_owner). The member's pending invitations for roles the new one cannot offer are revoked with the change.",
  tags,
  auth: "session",
  organization: { param: "organizationId", permission: "org:members:manage" },
  params: memberParams,
  body: roleBody,
  response: { status: 200, description: "The member.", schema: memberSchema },
  errors: [...IN_ORGANIZATION, "reverification_required", "last_owner"],
});

export const removeMemberOperation = defineOperation({
  operationId: "removeOrganizationMember",
  method: "delete",
  path: "/_svc/organizations/{organizationId}/members/{memberUserId}",
  summary: "Remove a member, or leave",
  description:
    "Any member may remove themselves; removing another needs org:members:manage and a role holding every permission of theirs (an owner only by an owner, from a recent sign-in: 403 reverification_required otherwise). The last owner cannot leave (409 last_owner). The pending invitations the member sent are revoked with the removal.",
  tags,
  auth: "session",
  organization: { param: "organizationId" },
  params: memberParams,
  response: { status: 204, description: "Removed." },
  errors: [...IN_ORGANIZATION, "reverification_required", "last_owner"],
});
