import { openApiDocument } from "@/lib/openapi/document";

// GET /api/openapi.json — the OpenAPI 3.1 document
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
