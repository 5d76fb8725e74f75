import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { REFERENCE_HTML } from "@/lib/openapi/reference-assets";

// GET /api/reference — browsable API reference (Swagger UI, served locally)
export function GET(): Response {
  return new Response(REFERENCE_HTML, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    },
  });
}

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
