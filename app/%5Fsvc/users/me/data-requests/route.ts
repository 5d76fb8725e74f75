import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listDataRequestsEndpoint, requestDataExportEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/data-requests — the user's data requests
export const GET = route(listDataRequestsEndpoint);

// POST /_svc/users/me/data-requests — request a copy of my data (emailed when ready)
export const POST = route(requestDataExportEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
