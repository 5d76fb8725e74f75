import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverCreateOrganizationEndpoint, serverListOrganizationsEndpoint } from "@/lib/organizations/server-endpoints";

// GET /api/server/v1/organizations — one page of the environment's organizations
export const GET = route(serverListOrganizationsEndpoint);

// POST /api/server/v1/organizations — create an organization (createdBy becomes its owner)
export const POST = route(serverCreateOrganizationEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
