import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { createJwtTemplateOperation, listJwtTemplatesOperation } from "@/lib/tokens/jwt-template-operations";
import { createJwtTemplate, listJwtTemplates } from "@/lib/tokens/jwt-templates";

// GET /api/server/v1/jwt-templates — list JWT templates
export const GET = serverRoute(listJwtTemplatesOperation, ({ environment }) => listJwtTemplates(getDb(), environment.id));

// POST /api/server/v1/jwt-templates — create a JWT template
export const POST = serverRoute(createJwtTemplateOperation, ({ environment, body, actor }) =>
  createJwtTemplate(getDb(), environment, body, actor),
);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
