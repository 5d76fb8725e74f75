import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { deleteOAuthProvider, getOAuthProvider, updateOAuthProvider } from "@/lib/oauth/provider-admin";
import { deleteOAuthProviderOperation, getOAuthProviderOperation, updateOAuthProviderOperation } from "@/lib/oauth/provider-operations";

// GET /api/server/v1/oauth-providers/{providerId} — get an OAuth provider
export const GET = serverRoute(getOAuthProviderOperation, ({ environment, params }) => getOAuthProvider(getDb(), environment, params.providerId));

// PATCH /api/server/v1/oauth-providers/{providerId} — update an OAuth provider
export const PATCH = serverRoute(updateOAuthProviderOperation, ({ environment, params, body, actor }) =>
  updateOAuthProvider(getDb(), environment, params.providerId, body, actor),
);

// DELETE /api/server/v1/oauth-providers/{providerId} — remove an OAuth provider
export const DELETE = serverRoute(deleteOAuthProviderOperation, ({ environment, params, actor }) =>
  deleteOAuthProvider(getDb(), environment.id, params.providerId, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
