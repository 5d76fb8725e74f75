import { getFrontendHostsEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/frontend-hosts — the hosts serving the environment
export const GET = route(getFrontendHostsEndpoint);

// Any other method — 405 problem+json with Allow. Replacing the hosts is dashboard-only
// (lib/applications/operations.ts replaceFrontendHostsOperation): no secret key may
// point the environment at a host it has not been vouched for.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
