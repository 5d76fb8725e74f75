import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { createOrganizationEndpoint, listMyOrganizationsEndpoint } from "@/lib/organizations/endpoints";

// GET /_svc/organizations — the organizations the user belongs to
export const GET = route(listMyOrganizationsEndpoint);

// POST /_svc/organizations — create an organization; the caller becomes its owner
export const POST = route(createOrganizationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
