import { getDb } from "@/db/client";
import { getEnvironmentSettingsOperation, updateEnvironmentSettingsOperation } from "@/lib/environments/operations";
import { updateEnvironmentSettings } from "@/lib/environments/update-settings";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";

// GET /api/server/v1/environment — the environment's settings
export const GET = serverRoute(getEnvironmentSettingsOperation, async ({ environment }) => environment.settings);

// PATCH /api/server/v1/environment — deep-merge a partial settings object
export const PATCH = serverRoute(updateEnvironmentSettingsOperation, ({ environment, body, actor }) =>
  updateEnvironmentSettings(getDb(), environment.id, body, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, DELETE, OPTIONS } = unsupportedMethods({ GET, PATCH });
