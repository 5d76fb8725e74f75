import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { confirmDeletionEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/delete/confirm — the emailed token soft-deletes the account
export const POST = route(confirmDeletionEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
