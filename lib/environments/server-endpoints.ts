import { endpoint } from "../operation/endpoint";
import { replaceAllowedOrigins } from "./allowed-origins";
import {
  createSecretKeyOperation,
  getAllowedOriginsOperation,
  getEnvironmentSettingsOperation,
  getFrontendHostsOperation,
  listSecretKeysOperation,
  listSigningKeysOperation,
  replaceAllowedOriginsOperation,
  revokeSecretKeyOperation,
  updateEnvironmentSettingsOperation,
} from "./operations";
import { createEnvironmentSecretKey, listEnvironmentSecretKeys, revokeEnvironmentSecretKey } from "./secret-keys";
import { listSigningKeys } from "./signing-key-list";
import { settingsShownTo } from "./settings";
import { updateEnvironmentSettings } from "./update-settings";
import { getDb } from "@/db/client";

/**
 * The Server API's environments operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// GET /api/server/v1/allowed-origins — list allowed origins
export const getAllowedOriginsEndpoint = endpoint(getAllowedOriginsOperation, async ({ environment }) => ({
  origins: environment.allowedOrigins,
}));

// PUT /api/server/v1/allowed-origins — replace the list
export const replaceAllowedOriginsEndpoint = endpoint(replaceAllowedOriginsOperation, ({ environment, body, actor }) =>
  replaceAllowedOrigins(getDb(), environment.id, body.origins, actor));

// GET /api/server/v1/environment — the environment's settings
export const getEnvironmentSettingsEndpoint = endpoint(getEnvironmentSettingsOperation, async ({ environment, caller }) =>
  settingsShownTo(caller, environment.settings));

// PATCH /api/server/v1/environment — deep-merge a partial settings object
export const updateEnvironmentSettingsEndpoint = endpoint(updateEnvironmentSettingsOperation, ({ environment, body, actor }) =>
  updateEnvironmentSettings(getDb(), environment.id, body, actor));

// GET /api/server/v1/api-keys — the environment's secret keys, never a key itself
export const listSecretKeysEndpoint = endpoint(listSecretKeysOperation, ({ environment }) => listEnvironmentSecretKeys(getDb(), environment.id));

// POST /api/server/v1/api-keys — a new secret key, shown in this answer only
export const createSecretKeyEndpoint = endpoint(createSecretKeyOperation, ({ environment, body, actor }) =>
  createEnvironmentSecretKey(getDb(), environment, body.label, actor));

// DELETE /api/server/v1/api-keys/{keyId} — revoke a secret key (never the last active one)
export const revokeSecretKeyEndpoint = endpoint(revokeSecretKeyOperation, ({ environment, params, actor }) =>
  revokeEnvironmentSecretKey(getDb(), environment.id, params.keyId, actor));

// GET /api/server/v1/signing-keys — the signing keys' public material
export const listSigningKeysEndpoint = endpoint(listSigningKeysOperation, ({ environment }) => listSigningKeys(getDb(), environment.id));

// GET /api/server/v1/frontend-hosts — the hosts serving the environment
export const getFrontendHostsEndpoint = endpoint(getFrontendHostsOperation, async ({ environment }) => ({ hosts: environment.frontendHosts }));

