import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { deleteOAuthProviderEndpoint, getOAuthProviderEndpoint, updateOAuthProviderEndpoint } from "@/lib/oauth/server-endpoints";

// GET /api/server/v1/oauth-providers/{providerId} — get an OAuth provider
export const GET = route(getOAuthProviderEndpoint);

// PATCH /api/server/v1/oauth-providers/{providerId} — update an OAuth provider
export const PATCH = route(updateOAuthProviderEndpoint);

// DELETE /api/server/v1/oauth-providers/{providerId} — remove an OAuth provider
export const DELETE = route(deleteOAuthProviderEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
