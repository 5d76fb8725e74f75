import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listOrganizationRolesEndpoint } from "@/lib/organizations/endpoints";

// GET /_svc/organizations/{organizationId}/roles — the roles a member can be given
export const GET = route(listOrganizationRolesEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
