import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { createOAuthProvider, listOAuthProviders } from "@/lib/oauth/provider-admin";
import { createOAuthProviderOperation, listOAuthProvidersOperation } from "@/lib/oauth/provider-operations";

// GET /api/server/v1/oauth-providers — list the environment's OAuth providers
export const GET = serverRoute(listOAuthProvidersOperation, ({ environment }) => listOAuthProviders(getDb(), environment));

// POST /api/server/v1/oauth-providers — add an OAuth provider
export const POST = serverRoute(createOAuthProviderOperation, ({ environment, body, actor }) => createOAuthProvider(getDb(), environment, body, actor));

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
