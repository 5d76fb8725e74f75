import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverRemoveMemberEndpoint, serverUpdateMemberEndpoint } from "@/lib/organizations/server-endpoints";

// PATCH /api/server/v1/organizations/{organizationId}/members/{userId} — change a member's role
export const PATCH = route(serverUpdateMemberEndpoint);

// DELETE /api/server/v1/organizations/{organizationId}/members/{userId} — remove a member
export const DELETE = route(serverRemoveMemberEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, OPTIONS } = unsupportedMethods({ PATCH, DELETE });
