import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { requestDeletionEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/delete/request — type-to-confirm, then a confirmation link by email
export const POST = route(requestDeletionEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
