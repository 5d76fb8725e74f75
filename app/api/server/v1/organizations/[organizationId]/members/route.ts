import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverAddMemberEndpoint, serverListMembersEndpoint } from "@/lib/organizations/server-endpoints";

// GET /api/server/v1/organizations/{organizationId}/members — one page of members
export const GET = route(serverListMembersEndpoint);

// POST /api/server/v1/organizations/{organizationId}/members — add a user with a role
export const POST = route(serverAddMemberEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
