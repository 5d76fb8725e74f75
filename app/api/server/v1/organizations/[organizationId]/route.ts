import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverDeleteOrganizationEndpoint, serverGetOrganizationEndpoint, serverUpdateOrganizationEndpoint } from "@/lib/organizations/server-endpoints";

// GET /api/server/v1/organizations/{organizationId} — get an organization
export const GET = route(serverGetOrganizationEndpoint);

// PATCH /api/server/v1/organizations/{organizationId} — update name, slug, logo, metadata
export const PATCH = route(serverUpdateOrganizationEndpoint);

// DELETE /api/server/v1/organizations/{organizationId} — delete with its memberships and invitations
export const DELETE = route(serverDeleteOrganizationEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
