import { endpoint } from "../operation/endpoint";
import { createOAuthProvider, deleteOAuthProvider, getOAuthProvider, listOAuthProviders, updateOAuthProvider } from "./provider-admin";
import { createOAuthProviderOperation, deleteOAuthProviderOperation, getOAuthProviderOperation, listOAuthProvidersOperation, updateOAuthProviderOperation } from "./provider-operations";
import { getDb } from "@/db/client";

/**
 * The Server API's oauth operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// GET /api/server/v1/oauth-providers/{providerId} — get an OAuth provider
export const getOAuthProviderEndpoint = endpoint(getOAuthProviderOperation, ({ environment, params }) => getOAuthProvider(getDb(), environment, params.providerId));

// PATCH /api/server/v1/oauth-providers/{providerId} — update an OAuth provider
export const updateOAuthProviderEndpoint = endpoint(updateOAuthProviderOperation, ({ environment, params, body, actor }) =>
  updateOAuthProvider(getDb(), environment, params.providerId, body, actor));

// DELETE /api/server/v1/oauth-providers/{providerId} — remove an OAuth provider
export const deleteOAuthProviderEndpoint = endpoint(deleteOAuthProviderOperation, ({ environment, params, actor }) =>
  deleteOAuthProvider(getDb(), environment.id, params.providerId, actor));

// GET /api/server/v1/oauth-providers — list the environment's OAuth providers
export const listOAuthProvidersEndpoint = endpoint(listOAuthProvidersOperation, ({ environment }) => listOAuthProviders(getDb(), environment));

// POST /api/server/v1/oauth-providers — add an OAuth provider
export const createOAuthProviderEndpoint = endpoint(createOAuthProviderOperation, ({ environment, body, actor }) => createOAuthProvider(getDb(), environment, body, actor));
