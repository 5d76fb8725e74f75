import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { deleteJwtTemplateEndpoint, getJwtTemplateEndpoint, updateJwtTemplateEndpoint } from "@/lib/tokens/server-endpoints";

// GET /api/server/v1/jwt-templates/{templateId} — get a JWT template
export const GET = route(getJwtTemplateEndpoint);

// PATCH /api/server/v1/jwt-templates/{templateId} — update a JWT template
export const PATCH = route(updateJwtTemplateEndpoint);

// DELETE /api/server/v1/jwt-templates/{templateId} — delete a JWT template
export const DELETE = route(deleteJwtTemplateEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
