import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import {
  deleteJwtTemplateOperation,
  getJwtTemplateOperation,
  updateJwtTemplateOperation,
} from "@/lib/tokens/jwt-template-operations";
import { deleteJwtTemplate, getJwtTemplate, updateJwtTemplate } from "@/lib/tokens/jwt-templates";

// GET /api/server/v1/jwt-templates/{templateId} — get a JWT template
export const GET = serverRoute(getJwtTemplateOperation, ({ environment, params }) =>
  getJwtTemplate(getDb(), environment.id, params.templateId),
);

// PATCH /api/server/v1/jwt-templates/{templateId} — update a JWT template
export const PATCH = serverRoute(updateJwtTemplateOperation, ({ environment, params, body, actor }) =>
  updateJwtTemplate(getDb(), environment.id, params.templateId, body, actor),
);

// DELETE /api/server/v1/jwt-templates/{templateId} — delete a JWT template
export const DELETE = serverRoute(deleteJwtTemplateOperation, ({ environment, params, actor }) =>
  deleteJwtTemplate(getDb(), environment.id, params.templateId, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
