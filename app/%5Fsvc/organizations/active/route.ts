import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { setActiveOrganizationEndpoint } from "@/lib/organizations/active-organization-endpoints";

// POST /_svc/organizations/active — the organization the session acts for
export const POST = route(setActiveOrganizationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
