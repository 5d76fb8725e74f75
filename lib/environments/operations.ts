import { defineOperation } from "../operation/operation";
import { allowedOriginsBody, allowedOriginsSchema } from "./allowed-origins";
import { frontendHostsSchema } from "./frontend-hosts";
import { createdSecretKeySchema, createSecretKeyBody, secretKeyListSchema, secretKeyParams, secretKeySchema } from "./secret-keys";
import { environmentSettingsPatchSchema, environmentSettingsSchema } from "./settings";
import { signingKeyListSchema } from "./signing-key-list";

const tags = ["Environment"];

export const getAllowedOriginsOperation = defineOperation({
  operationId: "getAllowedOrigins",
  method: "get",
  path: "/api/server/v1/allowed-origins",
  summary: "List allowed origins",
  description: "Origins, beyond the environment's own frontend hosts, that may call the Client API from a browser and receive redirects.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The allowed origins.", schema: allowedOriginsSchema },
  errors: ["unauthorized"],
});

export const replaceAllowedOriginsOperation = defineOperation({
  operationId: "replaceAllowedOrigins",
  method: "put",
  path: "/api/server/v1/allowed-origins",
  summary: "Replace allowed origins",
  description: "Replaces the list as a whole. Each entry must be a full origin `scheme://host[:port]` (any scheme but javascript:, data: and the like; no path); entries are normalised and deduplicated.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: allowedOriginsBody,
  response: { status: 200, description: "The stored list.", schema: allowedOriginsSchema },
  errors: ["invalid_request", "unauthorized"],
});

export const getEnvironmentSettingsOperation = defineOperation({
  operationId: "getEnvironmentSettings",
  method: "get",
  path: "/api/server/v1/environment",
  summary: "Get environment settings",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The environment's settings.", schema: environmentSettingsSchema },
  errors: ["unauthorized"],
});

export const updateEnvironmentSettingsOperation = defineOperation({
  operationId: "updateEnvironmentSettings",
  method: "patch",
  path: "/api/server/v1/environment",
  summary: "Update environment settings",
  description:
    "Deep-merges a partial settings object; null resets a key to its default; unknown keys are refused. `rateLimits.enabled: false` is refused in production environments. `security.frameAncestors` (default `[\"'none'\"]`) is the hosted pages' CSP `frame-ancestors`: `'none'`, or `'self'` and/or http(s) origins; `X-Frame-Options` is `DENY` for `'none'`, `SAMEORIGIN` for `'self'` alone, and absent when origins are listed (it cannot name them).",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: environmentSettingsPatchSchema,
  response: { status: 200, description: "The settings after the merge.", schema: environmentSettingsSchema },
  errors: ["invalid_request", "unauthorized"],
});

export const listSecretKeysOperation = defineOperation({
  operationId: "listSecretKeys",
  method: "get",
  path: "/api/server/v1/api-keys",
  summary: "List secret keys",
  description: "The environment's secret keys, newest first, revoked ones included. Never the key itself: `displayPrefix` is enough to recognise it. `lastUsedAt` is kept to the minute.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The secret keys.", schema: secretKeyListSchema },
  errors: ["unauthorized"],
});

export const createSecretKeyOperation = defineOperation({
  operationId: "createSecretKey",
  method: "post",
  path: "/api/server/v1/api-keys",
  summary: "Create a secret key",
  description: "Answers the new key in `secret`, this once: only its hash is stored. A dashboard operator needs the revealSecrets permission (a viewer never sees a secret).",
  tags,
  auth: "server",
  operatorPermission: "revealSecrets",
  body: createSecretKeyBody,
  response: { status: 201, description: "The new key, with its secret.", schema: createdSecretKeySchema },
  errors: ["invalid_request", "unauthorized"],
});

export const revokeSecretKeyOperation = defineOperation({
  operationId: "revokeSecretKey",
  method: "delete",
  path: "/api/server/v1/api-keys/{keyId}",
  summary: "Revoke a secret key",
  description:
    "The key stops working at once: the next request with it gets 401. A key of another environment, an unknown or an already revoked one is 404. The environment's last active key cannot be revoked (409 `last_secret_key`): create another one first, so the back-end is never locked out.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: secretKeyParams,
  response: { status: 200, description: "The revoked key.", schema: secretKeySchema },
  errors: ["invalid_request", "unauthorized", "resource_not_found", "last_secret_key"],
});

export const listSigningKeysOperation = defineOperation({
  operationId: "listSigningKeys",
  method: "get",
  path: "/api/server/v1/signing-keys",
  summary: "List signing keys",
  description: "The environment's token signing keys, newest first (at most 50): the active one and the retired ones, public material only. `POST /signing-keys/rotate` makes a new one active.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The signing keys.", schema: signingKeyListSchema },
  errors: ["unauthorized"],
});

export const getFrontendHostsOperation = defineOperation({
  operationId: "getFrontendHosts",
  method: "get",
  path: "/api/server/v1/frontend-hosts",
  summary: "List frontend hosts",
  description:
    "The hosts (`host[:port]`) that serve the environment's Client API and hosted pages; the first is the primary. Read-only here: an operator sets them in the dashboard (or `env create` of the CLI), since nothing proves that an environment owns a host.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The frontend hosts.", schema: frontendHostsSchema },
  errors: ["unauthorized"],
});
