import { defineOperation } from "../operation/operation";
import { templateNameParams } from "./jwt-template-schemas";
import { accessTokenSchema, jwksSchema, openIdConfigurationSchema, rotatedSigningKeySchema } from "./schemas";

const tags = ["Tokens"];

/**
 * Five minutes: short enough that a verifier sees a rotated-in key soon, long
 * enough that it does not fetch per token. Verifiers should also refetch on an
 * unknown kid (jose's createRemoteJWKSet does).
 */
const PUBLIC_DOCUMENT_CACHE = "public, max-age=300";

export const getJwksOperation = defineOperation({
  operationId: "getJwks",
  method: "get",
  path: "/_svc/.well-known/jwks.json",
  summary: "Get the JSON Web Key Set",
  description:
    "The environment's public signing keys: the current one and retired ones until every token they signed has expired. Cacheable for 5 minutes, per environment: `Vary: Origin, Host, X-Forwarded-Host, X-API-Key`.",
  tags,
  auth: "publishableKey",
  response: { status: 200, description: "The key set.", schema: jwksSchema },
  cacheControl: PUBLIC_DOCUMENT_CACHE,
  errors: ["environment_not_found"],
});

/** The discovery document is served at two paths (CONTRACT §5); one description for both. */
function discoveryOperation(operationId: string, path: string, summary: string) {
  return defineOperation({
    operationId,
    method: "get",
    path,
    summary,
    description:
      "Issuer and JWKS URL for verifiers. `issuer` equals the `iss` claim of every token the environment mints. Cacheable for 5 minutes, per environment: `Vary: Origin, Host, X-Forwarded-Host, X-API-Key`.",
    tags,
    auth: "publishableKey",
    response: { status: 200, description: "The discovery document.", schema: openIdConfigurationSchema },
    cacheControl: PUBLIC_DOCUMENT_CACHE,
    errors: ["environment_not_found"],
  });
}

export const getOpenIdConfigurationOperation = discoveryOperation(
  "getOpenIdConfiguration",
  "/_svc/.well-known/openid-configuration",
  "Get the OpenID Connect discovery document",
);

export const getRootOpenIdConfigurationOperation = discoveryOperation(
  "getRootOpenIdConfiguration",
  "/.well-known/openid-configuration",
  "Get the OpenID Connect discovery document (root)",
);

export const refreshTokenOperation = defineOperation({
  operationId: "refreshToken",
  method: "post",
  path: "/_svc/auth/token",
  summary: "Refresh JWT",
  description:
    "A fresh access token for the current session, signed with the environment's current key. `azp` is the request's Origin when present. A PENDING session (a gate still open) gets 403 `session_pending` with `properties.currentGate`.",
  tags,
  auth: "session",
  response: { status: 200, description: "The access token.", schema: accessTokenSchema },
  errors: ["unauthorized", "environment_not_found", "origin_not_allowed", "session_pending"],
});

export const mintTemplateTokenOperation = defineOperation({
  operationId: "mintTemplateToken",
  method: "post",
  path: "/_svc/auth/token/{templateName}",
  summary: "Mint a token from a JWT template",
  description:
    "A token with the template's claims (shortcodes resolved for the current user and session) and lifetime; the standard claims always win. A PENDING session gets 403 `session_pending`.",
  tags,
  auth: "session",
  params: templateNameParams,
  response: { status: 200, description: "The access token.", schema: accessTokenSchema },
  errors: ["invalid_request", "unauthorized", "environment_not_found", "origin_not_allowed", "session_pending", "resource_not_found"],
});

export const rotateSigningKeyOperation = defineOperation({
  operationId: "rotateSigningKey",
  method: "post",
  path: "/api/server/v1/signing-keys/rotate",
  summary: "Rotate the signing key",
  description:
    "Creates a new signing key and retires the current one in one transaction. New tokens carry the new `kid`; the old key stays in the JWKS until the tokens it signed have expired (24 h, the longest template lifetime).",
  tags,
  auth: "server",
  operatorPermission: "write",
  response: { status: 200, description: "The new current key.", schema: rotatedSigningKeySchema },
  errors: ["unauthorized"],
});
