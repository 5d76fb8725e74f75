import { z } from "zod";
import { codeChallengeSchema, codeVerifierSchema } from "../tickets/pkce";

const redirectUrl = z
  .string()
  .max(2048, "is too long")
  .optional()
  .meta({ description: "Where the flow ends: a path, or a URL on one of the environment's origins (allowed origins for apps and custom schemes). Anything else is refused, never followed." });

/** The `{provider}` path segment: the provider's id in the environment (CONTRACT "Pinned shapes"). */
export const providerParams = z.object({
  provider: z.string().regex(/^[a-z0-9-]{2,32}$/, "is not a provider id").meta({ description: "The provider's id, e.g. `google`." }),
});

const codeChallenge = codeChallengeSchema;

export const authorizeQuery = z
  .object({
    redirect_url: redirectUrl,
    _is_native: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" }).optional().meta({ description: "A native app: the flow ends at `{redirect_url}?ticket=` (or `?continuation_token=`); requires `code_challenge` with `code_challenge_method=S256` and a `redirect_url` with the app's custom scheme on the allowed origins (e.g. `myapp://callback`), never an http or https page." }),
    code_challenge: codeChallenge.optional().meta({ description: "Native apps only: BASE64URL(SHA256(code_verifier))." }),
    code_challenge_method: z.string().max(16).optional().meta({ description: "Must be `S256`; `plain` is refused." }),
  });

export const linkQuery = z.object({ redirect_url: redirectUrl });

/**
 * What a provider sends to the callback (RFC 6749 §4.1.2, RFC 9207 `iss`). Other
 * parameters pass through to the exchange untouched; each is bounded.
 */
const callbackParam = z.string().max(4096, "is too long").optional();
export const callbackQuery = z.looseObject({
  state: callbackParam.meta({ description: "The state Gatehouse sent; single use, bound to this browser and provider." }),
  code: callbackParam.meta({ description: "The authorization code." }),
  iss: callbackParam.meta({ description: "RFC 9207 issuer identification, when the provider sends it." }),
  error: callbackParam.meta({ description: "The provider's error, e.g. `access_denied`." }),
  error_description: callbackParam,
});

/**
 * A `response_mode=form_post` callback (Apple): the same parameters, posted as a
 * form. Only these are carried on; the posted id_token is not (the exchange gets
 * its own) and never lands in a URL.
 */
export const callbackForm = z
  .looseObject({
    state: callbackParam,
    code: callbackParam,
    iss: callbackParam,
    error: callbackParam,
    error_description: callbackParam,
  })
  .meta({ id: "OAuthCallbackForm" });

export const continuationQuery = z.object({ token: z.string().min(1, "must not be empty").max(200, "is too long") });

export const continuationView = z
  .object({
    status: z.literal("pending"),
    missingRequirements: z.array(z.literal("legal_consent")),
    provider: z.object({ id: z.string(), name: z.string() }),
    email: z.string().nullable().meta({ description: "The provider's verified address, which the account will have; null when none." }),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    requiresCodeVerifier: z.boolean().meta({ description: "True when a native app started the flow: finalise with its `codeVerifier`." }),
    legal: z.object({ termsUrl: z.string().nullable(), privacyUrl: z.string().nullable() }),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: "SignUpContinuation", description: "A deferred OAuth sign-up and what it still needs." });

export const continueBody = z
  .strictObject({
    token: z.string().min(1, "must not be empty").max(200, "is too long"),
    legalConsentAccepted: z.boolean(),
    codeVerifier: codeVerifierSchema
      .nullable()
      .optional()
      .meta({ description: "Required when the flow was started by a native app with a code_challenge; omitted on the web." }),
  })
  .meta({ id: "ContinueSignUpRequest" });
