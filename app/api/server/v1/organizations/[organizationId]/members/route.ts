import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { getMember, listMembers } from "@/lib/organizations/members";
import { addMembership } from "@/lib/organizations/memberships";
import { getOrganizationOrThrow } from "@/lib/organizations/organizations";
import { serverAddMemberOperation, serverListMembersOperation } from "@/lib/organizations/server-operations";

// GET /api/server/v1/organizations/{organizationId}/members — one page of members
export const GET = serverRoute(serverListMembersOperation, async ({ environment, params, query }) => {
  await getOrganizationOrThrow(getDb(), environment.id, params.organizationId);
  return listMembers(getDb(), environment.id, params.organizationId, query);
});

// POST /api/server/v1/organizations/{organizationId}/members — add a user with a role
export const POST = serverRoute(serverAddMemberOperation, async ({ environment, params, body, actor }) => {
  const db = getDb();
  await db.transaction((tx) => addMembership(tx, environment, { organizationId: params.organizationId, ...body }, actor));
  return getMember(db, environment.id, params.organizationId, body.userId);
});

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
