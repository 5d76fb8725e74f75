import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createJwtTemplateEndpoint, listJwtTemplatesEndpoint } from "@/lib/tokens/server-endpoints";

// GET /api/server/v1/jwt-templates — list JWT templates
export const GET = route(listJwtTemplatesEndpoint);

// POST /api/server/v1/jwt-templates — create a JWT template
export const POST = route(createJwtTemplateEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
