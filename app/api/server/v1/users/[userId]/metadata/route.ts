import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { updateUserMetadataEndpoint } from "@/lib/users/server-endpoints";

// PATCH /api/server/v1/users/{userId}/metadata — deep-merge metadata bags
export const PATCH = route(updateUserMetadataEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, DELETE, OPTIONS } = unsupportedMethods({ PATCH });
