import { getDb } from "@/db/client";
import { endpoint, requireMembership } from "../operation/endpoint";
import { listMembers, removeMember, updateMemberRole } from "./members";
import { listMyOrganizations } from "./memberships";
import {
  createOrganizationOperation,
  deleteMyOrganizationOperation,
  getMyOrganizationOperation,
  listMyOrganizationsOperation,
  listOrganizationMembersOperation,
  listOrganizationRolesOperation,
  removeMemberOperation,
  updateMemberRoleOperation,
  updateMyOrganizationOperation,
} from "./operations";
import { createOrganization, deleteOrganization, getOrganizationOrThrow, toClientOrganization, updateOrganization } from "./organizations";
import { readRoleSet } from "./roles";

/* The Client API organization operations with their implementations, served under /_svc. */

export const listMyOrganizationsEndpoint = endpoint(listMyOrganizationsOperation, async ({ environment, session }) => ({
  items: await listMyOrganizations(getDb(), environment.id, session.user.id),
}));

export const createOrganizationEndpoint = endpoint(createOrganizationOperation, async ({ environment, session, body, actor }) => {
  const { row, membership } = await createOrganization(getDb(), environment, { name: body.name }, session.user.id, actor);
  if (!membership) throw new Error("the creator was not made owner");
  return toClientOrganization(row, membership);
});

export const getMyOrganizationEndpoint = endpoint(getMyOrganizationOperation, async (input) => {
  const row = await getOrganizationOrThrow(getDb(), input.environment.id, input.params.organizationId);
  return toClientOrganization(row, requireMembership(input));
});

export const updateMyOrganizationEndpoint = endpoint(updateMyOrganizationOperation, async (input) => {
  const membership = requireMembership(input);
  const row = await updateOrganization(getDb(), input.environment.id, input.params.organizationId, input.body, input.caller, input.actor);
  return toClientOrganization(row, membership);
});

export const deleteMyOrganizationEndpoint = endpoint(deleteMyOrganizationOperation, async (input) => {
  await deleteOrganization(getDb(), input.environment.id, input.params.organizationId, input.caller, input.actor);
  return undefined;
});

export const listOrganizationRolesEndpoint = endpoint(listOrganizationRolesOperation, async ({ environment }) => ({
  items: await readRoleSet(getDb(), environment.id),
}));

export const listOrganizationMembersEndpoint = endpoint(listOrganizationMembersOperation, ({ environment, params, query }) =>
  listMembers(getDb(), environment.id, params.organizationId, query),
);

export const updateMemberRoleEndpoint = endpoint(updateMemberRoleOperation, (input) =>
  updateMemberRole(getDb(), input.environment, input.params.organizationId, input.params.memberUserId, input.body.role, input.caller, input.actor),
);

export const removeMemberEndpoint = endpoint(removeMemberOperation, async (input) => {
  await removeMember(getDb(), input.environment.id, input.params.organizationId, input.params.memberUserId, input.caller, input.actor);
  return undefined;
});
