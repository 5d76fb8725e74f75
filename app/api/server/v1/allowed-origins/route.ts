import { getAllowedOriginsEndpoint, replaceAllowedOriginsEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/allowed-origins — list allowed origins
export const GET = route(getAllowedOriginsEndpoint);

// PUT /api/server/v1/allowed-origins — replace the list
export const PUT = route(replaceAllowedOriginsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, PUT });
