import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { removeMember, updateMemberRole } from "@/lib/organizations/members";
import { serverRemoveMemberOperation, serverUpdateMemberOperation } from "@/lib/organizations/server-operations";

// PATCH /api/server/v1/organizations/{organizationId}/members/{userId} — change a member's role
export const PATCH = serverRoute(serverUpdateMemberOperation, ({ environment, params, body, actor }) =>
  updateMemberRole(getDb(), environment, params.organizationId, params.userId, body.role, null, actor),
);

// DELETE /api/server/v1/organizations/{organizationId}/members/{userId} — remove a member
export const DELETE = serverRoute(serverRemoveMemberOperation, async ({ environment, params, actor }) => {
  await removeMember(getDb(), environment.id, params.organizationId, params.userId, null, actor);
  return undefined;
});

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, OPTIONS } = unsupportedMethods({ PATCH, DELETE });
