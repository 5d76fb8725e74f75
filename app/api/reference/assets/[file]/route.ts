import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { referenceAsset } from "@/lib/openapi/reference-assets";

// GET /api/reference/assets/{file} — the reference page's scripts and styles
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  return (await referenceAsset(file)) ?? new Response("Not found", { status: 404 });
}

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
