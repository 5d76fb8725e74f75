import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { openApiDocument } from "@/lib/openapi/document";

// GET /api/openapi.json — the OpenAPI 3.1 document
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
