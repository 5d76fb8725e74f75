import { defineOperation } from "../operation/operation";
import { pageQuery } from "../users/schemas";
import {
  addMemberBody,
  memberPageQuery,
  memberPageSchema,
  memberSchema,
  organizationIdParams,
  replaceRolesBody,
  roleBody,
  roleListSchema,
  serverCreateOrganizationBody,
  serverMemberParams,
  serverOrganizationPageSchema,
  serverOrganizationSchema,
  updateOrganizationBody,
} from "./schemas";

const tags = ["Organizations"];
const SERVER = ["unauthorized"] as const;
const ON_ORGANIZATION = [...SERVER, "invalid_request", "resource_not_found"] as const;

export const serverListOrganizationsOperation = defineOperation({
  operationId: "listOrganizations",
  method: "get",
  path: "/api/server/v1/organizations",
  summary: "List organizations",
  description: "The environment's organizations, newest first, by keyset.",
  tags,
  auth: "server",
  operatorPermission: "read",
  query: pageQuery,
  response: { status: 200, description: "One page of organizations.", schema: serverOrganizationPageSchema },
  errors: [...SERVER, "invalid_request"],
});

export const serverCreateOrganizationOperation = defineOperation({
  operationId: "createOrganizationAsOperator",
  method: "post",
  path: "/api/server/v1/organizations",
  summary: "Create an organization",
  description: "Creates an organization; `createdBy` (a user of the environment) becomes its owner. A taken slug is 409 identifier_exists.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: serverCreateOrganizationBody,
  response: { status: 201, description: "The organization.", schema: serverOrganizationSchema },
  errors: [...SERVER, "invalid_request", "resource_not_found", "environment_mismatch", "identifier_exists", "organization_limit_reached", "payload_too_large"],
});

export const serverGetOrganizationOperation = defineOperation({
  operationId: "getOrganization",
  method: "get",
  path: "/api/server/v1/organizations/{organizationId}",
  summary: "Get an organization",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: organizationIdParams,
  response: { status: 200, description: "The organization.", schema: serverOrganizationSchema },
  errors: [...ON_ORGANIZATION],
});

export const serverUpdateOrganizationOperation = defineOperation({
  operationId: "updateOrganization",
  method: "patch",
  path: "/api/server/v1/organizations/{organizationId}",
  summary: "Update an organization",
  description: "Name, slug, logo and metadata (each bag given replaces the stored one).",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: organizationIdParams,
  body: updateOrganizationBody,
  response: { status: 200, description: "The organization.", schema: serverOrganizationSchema },
  errors: [...ON_ORGANIZATION, "identifier_exists", "payload_too_large"],
});

export const serverDeleteOrganizationOperation = defineOperation({
  operationId: "deleteOrganization",
  method: "delete",
  path: "/api/server/v1/organizations/{organizationId}",
  summary: "Delete an organization",
  description: "Deletes the organization with its memberships and invitations.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: organizationIdParams,
  response: { status: 200, description: "The deleted organization.", schema: serverOrganizationSchema },
  errors: [...ON_ORGANIZATION],
});

export const serverListMembersOperation = defineOperation({
  operationId: "listOrganizationMembersAsOperator",
  method: "get",
  path: "/api/server/v1/organizations/{organizationId}/members",
  summary: "List members",
  description: "Members oldest first, by keyset; `query` keeps those whose name or email contains it.",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: organizationIdParams,
  query: memberPageQuery,
  response: { status: 200, description: "One page of members.", schema: memberPageSchema },
  errors: [...ON_ORGANIZATION],
});

export const serverAddMemberOperation = defineOperation({
  operationId: "addOrganizationMember",
  method: "post",
  path: "/api/server/v1/organizations/{organizationId}/members",
  summary: "Add a member",
  description: "Adds a user of the environment with a role of the role set. 409 already_member; 409 organization_limit_reached past a limit.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: organizationIdParams,
  body: addMemberBody,
  response: { status: 201, description: "The member.", schema: memberSchema },
  errors: [...ON_ORGANIZATION, "environment_mismatch", "already_member", "organization_limit_reached"],
});

export const serverUpdateMemberOperation = defineOperation({
  operationId: "updateOrganizationMember",
  method: "patch",
  path: "/api/server/v1/organizations/{organizationId}/members/{userId}",
  summary: "Change a member's role",
  description: "The last owner cannot be demoted (409 last_owner). The pending invitations the member sent for roles the new one cannot offer are revoked with the change; those the Server API sent stay.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: serverMemberParams,
  body: roleBody,
  response: { status: 200, description: "The member.", schema: memberSchema },
  errors: [...ON_ORGANIZATION, "last_owner"],
});

export const serverRemoveMemberOperation = defineOperation({
  operationId: "removeOrganizationMemberAsOperator",
  method: "delete",
  path: "/api/server/v1/organizations/{organizationId}/members/{userId}",
  summary: "Remove a member",
  description: "The last owner cannot be removed (409 last_owner); delete the organization instead. The pending invitations the member sent are revoked with the removal.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: serverMemberParams,
  response: { status: 204, description: "Removed." },
  errors: [...ON_ORGANIZATION, "last_owner"],
});

export const serverListRolesOperation = defineOperation({
  operationId: "listOrganizationRoleSet",
  method: "get",
  path: "/api/server/v1/roles",
  summary: "Get the organization role set",
  description: "The environment's roles in display order: owner, admin and member until a set is stored.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The roles.", schema: roleListSchema },
  errors: [...SERVER],
});

export const serverReplaceRolesOperation = defineOperation({
  operationId: "replaceOrganizationRoleSet",
  method: "put",
  path: "/api/server/v1/roles",
  summary: "Replace the organization role set",
  description:
    "Replaces the set whole, in the order given. It must keep `owner` with org:members:manage, org:invitations:manage and org:settings:manage; dropping a role a member holds or a pending invitation offers is 409 role_in_use.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: replaceRolesBody,
  response: { status: 200, description: "The stored roles.", schema: roleListSchema },
  errors: [...SERVER, "invalid_request", "role_in_use", "payload_too_large"],
});
