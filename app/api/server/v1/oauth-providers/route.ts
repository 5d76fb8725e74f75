import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createOAuthProviderEndpoint, listOAuthProvidersEndpoint } from "@/lib/oauth/server-endpoints";

// GET /api/server/v1/oauth-providers — list the environment's OAuth providers
export const GET = route(listOAuthProvidersEndpoint);

// POST /api/server/v1/oauth-providers — add an OAuth provider
export const POST = route(createOAuthProviderEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
