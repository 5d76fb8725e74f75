import { defineOperation } from "../operation/operation";
import { allowedOriginsBody, allowedOriginsSchema } from "./allowed-origins";
import { environmentSettingsPatchSchema, environmentSettingsSchema } from "./settings";

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
