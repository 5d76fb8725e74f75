import { defineOperation } from "../operation/operation";
import {
  createOAuthProviderBody,
  oauthProviderListSchema,
  oauthProviderSchema,
  providerIdParams,
  publicOAuthProviderListSchema,
  updateOAuthProviderBody,
} from "./provider-schemas";

const tags = ["OAuth providers"];
const ON_PROVIDER = ["invalid_request", "unauthorized", "resource_not_found"] as const;

export const listOAuthProvidersOperation = defineOperation({
  operationId: "listOAuthProviders",
  method: "get",
  path: "/api/server/v1/oauth-providers",
  summary: "List OAuth providers",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "Every provider of the environment, in button order; secrets are never returned.", schema: oauthProviderListSchema },
  errors: ["unauthorized"],
});

export const createOAuthProviderOperation = defineOperation({
  operationId: "createOAuthProvider",
  method: "post",
  path: "/api/server/v1/oauth-providers",
  summary: "Add an OAuth provider",
  description:
    "Adds a sign-in provider: any OpenID Connect provider by its issuer (`oidc`), or a preset (`google`, `github`, `microsoft`, `apple`, `gitlab`) by its client id and secret. The client secret is sealed at rest and never returned. Register the returned `callbackUrl` with the provider. An id the environment already uses: 409 `oauth_provider_exists`.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: createOAuthProviderBody,
  response: { status: 201, description: "The provider.", schema: oauthProviderSchema },
  errors: ["invalid_request", "unauthorized", "oauth_provider_exists", "payload_too_large"],
});

export const getOAuthProviderOperation = defineOperation({
  operationId: "getOAuthProvider",
  method: "get",
  path: "/api/server/v1/oauth-providers/{providerId}",
  summary: "Get an OAuth provider",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: providerIdParams,
  response: { status: 200, description: "The provider.", schema: oauthProviderSchema },
  errors: [...ON_PROVIDER],
});

export const updateOAuthProviderOperation = defineOperation({
  operationId: "updateOAuthProvider",
  method: "patch",
  path: "/api/server/v1/oauth-providers/{providerId}",
  summary: "Update an OAuth provider",
  description:
    "Changes the label, client id, secret, issuer, scopes, order or whether it is enabled; the same rules as creation apply. A disabled provider is no longer listed to clients and its sign-ins are refused; its identities stay linked. The issuer cannot change while identities are linked through the provider (409 oauth_provider_in_use): account ids are only unique per issuer, so another issuer's user could sign in as one of ours; add the new issuer as another provider instead.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: providerIdParams,
  body: updateOAuthProviderBody,
  response: { status: 200, description: "The updated provider.", schema: oauthProviderSchema },
  errors: [...ON_PROVIDER, "payload_too_large", "oauth_provider_in_use"],
});

export const deleteOAuthProviderOperation = defineOperation({
  operationId: "deleteOAuthProvider",
  method: "delete",
  path: "/api/server/v1/oauth-providers/{providerId}",
  summary: "Remove an OAuth provider",
  description:
    "Removes the provider and the identities users linked through it, in one transaction: its buttons disappear and its sign-ins are refused. A provider added later with the same id starts with no identities, so another issuer's account ids can never sign in as ours. Users who signed in only through it get in again with a password reset to their address. Their sessions opened by a provider sign-in end in the same transaction (`session.revoked`, reason `identity_removed`), as do their provider sign-ins still waiting for a ticket redemption or a second factor; password, email-code and passkey sessions stay.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: providerIdParams,
  response: { status: 204, description: "The provider is removed." },
  errors: [...ON_PROVIDER],
});

export const listPublicOAuthProvidersOperation = defineOperation({
  operationId: "listPublicOAuthProviders",
  method: "get",
  path: "/_svc/auth/oauth2/providers",
  summary: "List the sign-in providers",
  description: "The environment's enabled OAuth providers for sign-in buttons, in the operator's order: id, name, type and icon. No secrets, no client ids.",
  tags,
  auth: "publishableKey",
  response: { status: 200, description: "The enabled providers.", schema: publicOAuthProviderListSchema },
  errors: ["environment_not_found"],
});
