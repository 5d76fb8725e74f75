import type { ErrorCode } from "../errors";
import { frontendHostsBody, frontendHostsSchema } from "../environments/frontend-hosts";
import { defineOperation } from "../operation/operation";
import {
  addEnvironmentBody,
  applicationPageQuery,
  applicationPageSchema,
  applicationParams,
  confirmationBody,
  createApplicationBody,
  createdEnvironmentSchema,
  deletedSchema,
  environmentParams,
  renameBody,
  renamedSchema,
} from "./schemas";

/**
 * Applications and environments: dashboard-only operations (auth `operator`, see
 * lib/operation/operation.ts). A secret key belongs to one environment, so these
 * cross-environment operations, and the one an operator must vouch for (frontend
 * hosts), are not Server API operations: they are not served
 * over HTTP and not in the OpenAPI document (lib/openapi/operations.ts does not list
 * them), but the dashboard runs them through the same pipeline, which checks the
 * operator's role against each `operatorPermission`. Their `path` names them only.
 */
const tags = ["Applications"];
const errors: ErrorCode[] = ["invalid_request", "unauthorized", "forbidden"];

export const listApplicationsOperation = defineOperation({
  operationId: "listApplications",
  method: "get",
  path: "dashboard:/applications",
  summary: "List applications with their environments",
  tags,
  auth: "operator",
  operatorPermission: "read",
  query: applicationPageQuery,
  response: { status: 200, description: "A page of applications, oldest first.", schema: applicationPageSchema },
  errors,
});

export const createApplicationOperation = defineOperation({
  operationId: "createApplication",
  method: "post",
  path: "dashboard:/applications",
  summary: "Create an application with its first environment",
  description: "Answers the first environment's secret key, this once (revealSecrets).",
  tags,
  auth: "operator",
  operatorPermission: "revealSecrets",
  body: createApplicationBody,
  response: { status: 201, description: "The first environment, with its secret key.", schema: createdEnvironmentSchema },
  errors: [...errors, "identifier_exists"],
});

export const addEnvironmentOperation = defineOperation({
  operationId: "addEnvironment",
  method: "post",
  path: "dashboard:/applications/{applicationId}/environments",
  summary: "Add an environment to an application",
  description: "Answers the new environment's secret key, this once (revealSecrets).",
  tags,
  auth: "operator",
  operatorPermission: "revealSecrets",
  params: applicationParams,
  body: addEnvironmentBody,
  response: { status: 201, description: "The environment, with its secret key.", schema: createdEnvironmentSchema },
  errors: [...errors, "resource_not_found", "identifier_exists"],
});

export const renameApplicationOperation = defineOperation({
  operationId: "renameApplication",
  method: "patch",
  path: "dashboard:/applications/{applicationId}",
  summary: "Rename an application",
  tags,
  auth: "operator",
  operatorPermission: "write",
  params: applicationParams,
  body: renameBody,
  response: { status: 200, description: "The new name.", schema: renamedSchema },
  errors: [...errors, "resource_not_found"],
});

export const renameEnvironmentOperation = defineOperation({
  operationId: "renameEnvironment",
  method: "patch",
  path: "dashboard:/environments/{environmentId}",
  summary: "Rename an environment",
  tags,
  auth: "operator",
  operatorPermission: "write",
  params: environmentParams,
  body: renameBody,
  response: { status: 200, description: "The new name.", schema: renamedSchema },
  errors: [...errors, "resource_not_found"],
});

export const replaceFrontendHostsOperation = defineOperation({
  operationId: "replaceFrontendHosts",
  method: "put",
  path: "dashboard:/environments/{environmentId}/frontend-hosts",
  summary: "Replace an environment's frontend hosts",
  description:
    "Replaces the list as a whole (1 to 20 hosts, normalised: lower case, punycode, no trailing dot, no default port; duplicates dropped). A host serves one environment only: one that already serves another is 409 `identifier_exists`. Dashboard-only, not a Server API operation: nothing proves that the environment owns a host, and a frontend host receives the environment's hosted pages, session cookies and the dashboard's impersonation hand-off (an operator's token), so an operator who vouches for the hosts sets them, never a secret-key holder (who could point the environment at an attacker's host, or take a host another tenant needs). `GET /api/server/v1/frontend-hosts` still reads them.",
  tags,
  auth: "operator",
  operatorPermission: "write",
  params: environmentParams,
  body: frontendHostsBody,
  response: { status: 200, description: "The stored list.", schema: frontendHostsSchema },
  errors: [...errors, "resource_not_found", "identifier_exists"],
});

export const deleteEnvironmentOperation = defineOperation({
  operationId: "deleteEnvironment",
  method: "delete",
  path: "dashboard:/environments/{environmentId}",
  summary: "Delete an environment and everything in it",
  description: "`confirmation` must be the environment's name (type-to-confirm); anything else is 400 and deletes nothing.",
  tags,
  auth: "operator",
  operatorPermission: "write",
  params: environmentParams,
  body: confirmationBody,
  response: { status: 200, description: "What was deleted.", schema: deletedSchema },
  errors: [...errors, "resource_not_found"],
});

export const deleteApplicationOperation = defineOperation({
  operationId: "deleteApplication",
  method: "delete",
  path: "dashboard:/applications/{applicationId}",
  summary: "Delete an application and all its environments",
  description: "`confirmation` must be the application's name (type-to-confirm); anything else is 400 and deletes nothing.",
  tags,
  auth: "operator",
  operatorPermission: "write",
  params: applicationParams,
  body: confirmationBody,
  response: { status: 200, description: "What was deleted.", schema: deletedSchema },
  errors: [...errors, "resource_not_found"],
});
