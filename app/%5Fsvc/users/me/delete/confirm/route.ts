import { clientPreflight, route } from "@/lib/http/route";
import { confirmDeletionEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/delete/confirm — the emailed token soft-deletes the account
export const POST = route(confirmDeletionEndpoint);

export const OPTIONS = clientPreflight;
