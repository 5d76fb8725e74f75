import type { EnvironmentContext } from "../environments/context";
import { issuerFor } from "./issuer";
import type { OpenIdConfiguration } from "./schemas";
import { SIGNING_ALGORITHM } from "./signing-keys";

/** Every claim Gatehouse may put in a token (CONTRACT §3); templates add their own. */
const CLAIMS_SUPPORTED = ["iss", "sub", "sid", "azp", "iat", "nbf", "exp", "env", "org_id", "org_role", "org_permissions", "act"];

/**
 * OpenID Connect Discovery 1.0 §3 metadata for the environment. The issuer is the
 * very string minted tokens carry as `iss`, and the document lives at
 * `{issuer}/.well-known/openid-configuration`, so verifiers that derive the
 * document from `iss` (Supabase, Convex, Hasura, jose) find the keys on their own.
 * Gatehouse is not an OAuth authorization server, so no authorization or token
 * endpoint is advertised; `id_token` is the closest response type to what it issues.
 */
export async function openIdConfiguration({ environment }: { environment: EnvironmentContext }): Promise<OpenIdConfiguration> {
  const issuer = issuerFor(environment);
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    token_endpoint_auth_methods_supported: ["none"],
    claims_supported: CLAIMS_SUPPORTED,
  };
}
