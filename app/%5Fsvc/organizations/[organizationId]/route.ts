import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { deleteMyOrganizationEndpoint, getMyOrganizationEndpoint, updateMyOrganizationEndpoint } from "@/lib/organizations/endpoints";

// GET /_svc/organizations/{organizationId} — one organization the user belongs to
export const GET = route(getMyOrganizationEndpoint);

// PATCH /_svc/organizations/{organizationId} — change its name, slug or logo (org:settings:manage)
export const PATCH = route(updateMyOrganizationEndpoint);

// DELETE /_svc/organizations/{organizationId} — delete it with its memberships and invitations (org:settings:manage, recent sign-in)
export const DELETE = route(deleteMyOrganizationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT } = unsupportedMethods({ GET, PATCH, DELETE, OPTIONS });
