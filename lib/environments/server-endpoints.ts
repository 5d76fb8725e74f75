import { endpoint } from "../operation/endpoint";
import { replaceAllowedOrigins } from "./allowed-origins";
import { getAllowedOriginsOperation, getEnvironmentSettingsOperation, replaceAllowedOriginsOperation, updateEnvironmentSettingsOperation } from "./operations";
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
