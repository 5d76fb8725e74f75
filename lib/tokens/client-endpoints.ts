import { endpoint } from "../operation/endpoint";
import { openIdConfiguration } from "./discovery";
import { publishedJwks } from "./jwks";
import { mintFromTemplate } from "./mint-from-template";
import { getJwksOperation, getOpenIdConfigurationOperation, getRootOpenIdConfigurationOperation, mintTemplateTokenOperation, refreshTokenOperation } from "./operations";
import { refreshAccessToken } from "./refresh-access-token";
import { getDb } from "@/db/client";

/**
 * Client API tokens operations whose implementation is a one-line call: the
 * route files serve them over HTTP.
 */
// POST /_svc/auth/token/{templateName} — mint a token from a JWT template
export const mintTemplateTokenEndpoint = endpoint(mintTemplateTokenOperation, ({ environment, session, params, context }) =>
  mintFromTemplate(getDb(), environment, session, params.templateName, context));

// POST /_svc/auth/token — a fresh access token for the current session
export const refreshTokenEndpoint = endpoint(refreshTokenOperation, ({ environment, session, context }) =>
  refreshAccessToken(getDb(), environment, session, context));

// GET /_svc/.well-known/jwks.json — the environment's public signing keys
export const getJwksEndpoint = endpoint(getJwksOperation, ({ environment }) => publishedJwks(getDb(), environment.id));

// GET /_svc/.well-known/openid-configuration — OIDC discovery at `{issuer}/.well-known/...`
export const getOpenIdConfigurationEndpoint = endpoint(getOpenIdConfigurationOperation, openIdConfiguration);

// GET /.well-known/openid-configuration — the same discovery document at the root, for tools that look only there
export const getRootOpenIdConfigurationEndpoint = endpoint(getRootOpenIdConfigurationOperation, openIdConfiguration);
