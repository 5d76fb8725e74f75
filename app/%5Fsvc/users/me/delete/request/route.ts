import { clientPreflight, route } from "@/lib/http/route";
import { requestDeletionEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/delete/request — type-to-confirm, then a confirmation link by email
export const POST = route(requestDeletionEndpoint);

export const OPTIONS = clientPreflight;
