import { z } from "zod";
import { PROVIDER_TYPES } from "./provider-presets";

/** Static segments beside `{provider}` under `/_svc/auth/oauth2/`: a provider of that id would be shadowed by them. */
const RESERVED_PROVIDER_IDS = ["providers", "link", "reverify"];

/** The `{provider}` path segment of the Client API (CONTRACT "Pinned shapes"). */
export const providerIdSchema = z
  .string()
  .regex(/^[a-z0-9-]{2,32}$/, "must be 2-32 lower-case letters, digits or `-`")
  .refine((id) => !RESERVED_PROVIDER_IDS.includes(id), "is reserved by the Client API's own paths")
  .meta({ description: "The provider's id in this environment and the `{provider}` segment of `/_svc/auth/oauth2/{provider}/...`." });

const providerTypeSchema = z.enum(PROVIDER_TYPES).meta({
  description:
    "`oidc`: any OpenID Connect provider, by its issuer URL (discovery). Presets: `google`, `github` (OAuth2 and its REST API), `microsoft` (default issuer: the multi-tenant `common` endpoint; name a tenant's issuer to restrict), `apple`, `gitlab` (default https://gitlab.com; a self-hosted GitLab by its issuer).",
});

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
const scopeSchema = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, "must be a scope token (RFC 6749 §3.3)");
const scopesSchema = z.array(scopeSchema).max(32).meta({ description: "Scopes requested from the provider; empty or omitted: the type's defaults." });

const issuerSchema = z.string().max(2048).meta({
  description:
    "The provider's issuer URL (OpenID discovery; for `github` the base URL of a GitHub Enterprise Server). Required for `oidc`; fixed for `google` and `apple`. https only; outside production an http issuer on a loopback host (127.0.0.1, [::1], localhost) is accepted for local and test providers.",
});

const nameSchema = z.string().trim().min(1).max(64).meta({ description: "The label on the sign-in buttons." });
const clientIdSchema = z.string().trim().min(1).max(512);
const clientSecretSchema = z.string().min(1).max(8192).meta({ description: "Sealed at rest; never returned (`clientSecretSet`). For Apple: the client secret JWT." });
const positionSchema = z.int().min(0).max(10_000).meta({ description: "Order of the buttons on the hosted pages, lowest first (ties by id)." });

export const createOAuthProviderBody = z
  .strictObject({
    id: providerIdSchema,
    type: providerTypeSchema,
    clientId: clientIdSchema,
    clientSecret: clientSecretSchema,
    issuer: issuerSchema.optional(),
    scopes: scopesSchema.optional(),
    name: nameSchema.optional().meta({ description: "Defaults to the type's name (Google, GitHub …); for `oidc` to the id." }),
    enabled: z.boolean().optional().meta({ description: "Default true." }),
    position: positionSchema.optional().meta({ description: "Default 0." }),
  })
  .meta({ id: "CreateOAuthProviderRequest" });

export const updateOAuthProviderBody = z
  .strictObject({
    name: nameSchema.optional(),
    clientId: clientIdSchema.optional(),
    clientSecret: clientSecretSchema.optional().meta({ description: "Replaces the secret; omitted: unchanged." }),
    issuer: issuerSchema.nullable().optional().meta({ description: "null: back to the type's default issuer (not for `oidc`)." }),
    scopes: scopesSchema.nullable().optional().meta({ description: "null or []: back to the type's default scopes." }),
    enabled: z.boolean().optional(),
    position: positionSchema.optional(),
  })
  .meta({ id: "UpdateOAuthProviderRequest", description: "The id and type of a provider cannot change: its callback URL is registered with the provider." });

export const oauthProviderSchema = z
  .object({
    id: z.string(),
    type: z.enum(PROVIDER_TYPES),
    name: z.string(),
    clientId: z.string(),
    clientSecretSet: z.literal(true).meta({ description: "The secret is stored (sealed); it is never returned." }),
    issuer: z.string().nullable().meta({ description: "The issuer in use: the provider's own, else the type's default." }),
    scopes: z.array(z.string()).meta({ description: "The scopes in use: the provider's own, else the type's defaults." }),
    enabled: z.boolean(),
    position: z.int(),
    callbackUrl: z.string().meta({ description: "The redirect URI to register with the provider: `{frontend origin}/_svc/auth/oauth2/{id}/callback`." }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "OAuthProvider" });

export const oauthProviderListSchema = z
  .object({ data: z.array(oauthProviderSchema) })
  .meta({ id: "OAuthProviderList", description: "Every provider of the environment, in button order." });

export const providerIdParams = z.object({ providerId: providerIdSchema });

export const publicOAuthProviderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(PROVIDER_TYPES),
    icon: z.enum(PROVIDER_TYPES).meta({ description: "Which brand icon to draw: the provider's type (`oidc`: a generic key)." }),
    authorizeUrl: z.string().meta({ description: "Where a sign-in button points: `/_svc/auth/oauth2/{id}/authorize` (add `redirect_url`)." }),
  })
  .meta({ id: "PublicOAuthProvider" });

export const publicOAuthProviderListSchema = z
  .object({ data: z.array(publicOAuthProviderSchema) })
  .meta({ id: "PublicOAuthProviderList", description: "The environment's enabled providers, in button order. No secrets, no client ids." });

export type OAuthProvider = z.output<typeof oauthProviderSchema>;
export type PublicOAuthProvider = z.output<typeof publicOAuthProviderSchema>;
export type CreateOAuthProviderInput = z.output<typeof createOAuthProviderBody>;
export type UpdateOAuthProviderInput = z.output<typeof updateOAuthProviderBody>;
