import { z } from "zod";

/** A public JWK as published (RFC 7517 §4); private members are never part of it. */
export const publicJwkSchema = z
  .object({
    kty: z.string(),
    kid: z.string(),
    alg: z.string(),
    use: z.literal("sig"),
    crv: z.string().optional(),
    x: z.string().optional(),
    y: z.string().optional(),
  })
  .meta({ id: "PublicJwk" });

export const jwksSchema = z
  .object({ keys: z.array(publicJwkSchema) })
  .meta({
    id: "JsonWebKeySet",
    description: "The current signing key first, then retired keys whose tokens may still be live.",
  });

export const openIdConfigurationSchema = z
  .object({
    issuer: z.url(),
    jwks_uri: z.url(),
    response_types_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
  })
  .meta({
    id: "OpenIdConfiguration",
    description: "OpenID Connect Discovery 1.0 metadata: enough for a verifier to find the issuer's keys.",
  });

/** What every access token carries (CONTRACT §3), said once for each schema that returns one. */
export const ACCESS_TOKEN_CLAIMS = "Claims: `iss`, `sub` (the user), `sid`, `azp` (the Origin, when sent), `iat`, `nbf`, `exp`, `env`; `org_id`, `org_role`, `org_permissions` while an organization is active; `act: {sub}` (RFC 8693 §4.1: who acts as the user) when the session is an impersonation.";

export const accessTokenSchema = z
  .object({
    accessToken: z.string().meta({ description: `A JWT signed with the environment's current key (ES256), verifiable with the JWKS. ${ACCESS_TOKEN_CLAIMS}` }),
    expiresAt: z.iso.datetime().meta({ description: "When the token's `exp` passes." }),
  })
  .meta({ id: "AccessToken" });

export const rotatedSigningKeySchema = z
  .object({ kid: z.string().meta({ description: "The new current key; new tokens carry it as `kid`." }) })
  .meta({ id: "RotatedSigningKey" });

export type PublicJwk = z.output<typeof publicJwkSchema>;
export type OpenIdConfiguration = z.output<typeof openIdConfigurationSchema>;
export type AccessToken = z.output<typeof accessTokenSchema>;
