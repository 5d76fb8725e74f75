import { getEnvironmentSettingsEndpoint, updateEnvironmentSettingsEndpoint } from "@/lib/environments/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/environment — the environment's settings
export const GET = route(getEnvironmentSettingsEndpoint);

// PATCH /api/server/v1/environment — deep-merge a partial settings object
export const PATCH = route(updateEnvironmentSettingsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, DELETE, OPTIONS } = unsupportedMethods({ GET, PATCH });
