import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listOrganizationMembersEndpoint } from "@/lib/organizations/endpoints";

// GET /_svc/organizations/{organizationId}/members — one page of members
export const GET = route(listOrganizationMembersEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
