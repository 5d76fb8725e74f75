import { referenceAsset } from "@/lib/openapi/reference-assets";

// GET /api/reference/assets/{file} — the reference page's scripts and styles
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  return (await referenceAsset(file)) ?? new Response("Not found", { status: 404 });
}
