import { endpoint } from "../operation/endpoint";
import { createJwtTemplateOperation, deleteJwtTemplateOperation, getJwtTemplateOperation, listJwtTemplatesOperation, updateJwtTemplateOperation } from "./jwt-template-operations";
import { createJwtTemplate, deleteJwtTemplate, getJwtTemplate, listJwtTemplates, updateJwtTemplate } from "./jwt-templates";
import { rotateSigningKeyOperation } from "./operations";
import { rotateSigningKey } from "./rotate-signing-key";
import { getDb } from "@/db/client";

/**
 * The Server API's tokens operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// POST /api/server/v1/signing-keys/rotate — make a new signing key current
export const rotateSigningKeyEndpoint = endpoint(rotateSigningKeyOperation, ({ environment, actor }) =>
  rotateSigningKey(getDb(), environment.id, actor));

// GET /api/server/v1/jwt-templates/{templateId} — get a JWT template
export const getJwtTemplateEndpoint = endpoint(getJwtTemplateOperation, ({ environment, params }) =>
  getJwtTemplate(getDb(), environment.id, params.templateId));

// PATCH /api/server/v1/jwt-templates/{templateId} — update a JWT template
export const updateJwtTemplateEndpoint = endpoint(updateJwtTemplateOperation, ({ environment, params, body, actor }) =>
  updateJwtTemplate(getDb(), environment.id, params.templateId, body, actor));

// DELETE /api/server/v1/jwt-templates/{templateId} — delete a JWT template
export const deleteJwtTemplateEndpoint = endpoint(deleteJwtTemplateOperation, ({ environment, params, actor }) =>
  deleteJwtTemplate(getDb(), environment.id, params.templateId, actor));

// GET /api/server/v1/jwt-templates — list JWT templates
export const listJwtTemplatesEndpoint = endpoint(listJwtTemplatesOperation, ({ environment }) => listJwtTemplates(getDb(), environment.id));

// POST /api/server/v1/jwt-templates — create a JWT template
export const createJwtTemplateEndpoint = endpoint(createJwtTemplateOperation, ({ environment, body, actor }) =>
  createJwtTemplate(getDb(), environment, body, actor));
