import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { getMeEndpoint, updateMeEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me — the signed-in user
export const GET = route(getMeEndpoint);

// PATCH /_svc/users/me — names, locale, unsafe metadata
export const PATCH = route(updateMeEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, DELETE } = unsupportedMethods({ GET, PATCH, OPTIONS });
