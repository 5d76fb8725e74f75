import { getFrontendHostsEndpoint, replaceFrontendHostsEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/frontend-hosts — the hosts serving the environment
export const GET = route(getFrontendHostsEndpoint);

// PUT /api/server/v1/frontend-hosts — replace the list
export const PUT = route(replaceFrontendHostsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, PUT });
