import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { getMyOrganizationEndpoint } from "@/lib/organizations/endpoints";

// GET /_svc/organizations/{organizationId} — one organization the user belongs to
export const GET = route(getMyOrganizationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
