import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { removeMemberEndpoint, updateMemberRoleEndpoint } from "@/lib/organizations/endpoints";

// PATCH /_svc/organizations/{organizationId}/members/{memberUserId} — change a member's role
export const PATCH = route(updateMemberRoleEndpoint);

// DELETE /_svc/organizations/{organizationId}/members/{memberUserId} — remove a member, or leave
export const DELETE = route(removeMemberEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, POST, PUT } = unsupportedMethods({ PATCH, DELETE, OPTIONS });
