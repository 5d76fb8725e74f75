import { defineOperation } from "../operation/operation";
import {
  createJwtTemplateBody,
  jwtTemplateListSchema,
  jwtTemplateSchema,
  templateIdParams,
  updateJwtTemplateBody,
} from "./jwt-template-schemas";

const tags = ["JWT templates"];
const ON_TEMPLATE = ["invalid_request", "unauthorized", "environment_mismatch", "resource_not_found"] as const;

export const listJwtTemplatesOperation = defineOperation({
  operationId: "listJwtTemplates",
  method: "get",
  path: "/api/server/v1/jwt-templates",
  summary: "List JWT templates",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "Every template of the environment, by name.", schema: jwtTemplateListSchema },
  errors: ["unauthorized"],
});

export const createJwtTemplateOperation = defineOperation({
  operationId: "createJwtTemplate",
  method: "post",
  path: "/api/server/v1/jwt-templates",
  summary: "Create a JWT template",
  description:
    "A named set of claims that clients mint tokens from with `POST /_svc/auth/token/{templateName}`. Reserved claims, `{{user.private_metadata}}`, `__proto__` keys and claims over 4096 bytes are refused with 400.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: createJwtTemplateBody,
  response: { status: 201, description: "The created template.", schema: jwtTemplateSchema },
  errors: ["invalid_request", "unauthorized", "identifier_exists", "payload_too_large"],
});

export const getJwtTemplateOperation = defineOperation({
  operationId: "getJwtTemplate",
  method: "get",
  path: "/api/server/v1/jwt-templates/{templateId}",
  summary: "Get a JWT template",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: templateIdParams,
  response: { status: 200, description: "The template.", schema: jwtTemplateSchema },
  errors: [...ON_TEMPLATE],
});

export const updateJwtTemplateOperation = defineOperation({
  operationId: "updateJwtTemplate",
  method: "patch",
  path: "/api/server/v1/jwt-templates/{templateId}",
  summary: "Update a JWT template",
  description: "Changes the name, replaces the claims as a whole, or sets the lifetime; the same rules as creation apply.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: templateIdParams,
  body: updateJwtTemplateBody,
  response: { status: 200, description: "The updated template.", schema: jwtTemplateSchema },
  errors: [...ON_TEMPLATE, "identifier_exists", "payload_too_large"],
});

export const deleteJwtTemplateOperation = defineOperation({
  operationId: "deleteJwtTemplate",
  method: "delete",
  path: "/api/server/v1/jwt-templates/{templateId}",
  summary: "Delete a JWT template",
  description: "Tokens already minted from it stay valid until they expire.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: templateIdParams,
  response: { status: 204, description: "The template is deleted." },
  errors: [...ON_TEMPLATE],
});
