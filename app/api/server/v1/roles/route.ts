import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { serverListRolesEndpoint, serverReplaceRolesEndpoint } from "@/lib/organizations/server-endpoints";

// GET /api/server/v1/roles — the environment's organization role set
export const GET = route(serverListRolesEndpoint);

// PUT /api/server/v1/roles — replace the role set whole
export const PUT = route(serverReplaceRolesEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, PUT });
