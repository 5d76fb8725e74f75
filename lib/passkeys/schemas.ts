import { z } from "zod";
import type { AuthenticationExtensionsClientOutputs } from "@simplewebauthn/server";
import { personNameSchema } from "../users/schemas";

/*
 * The wire shapes of the passkey ceremonies. Requests carry what the browser's
 * `PublicKeyCredential.toJSON()` (or @simplewebauthn/browser) produces; every field
 * the verifier reads is checked here first, with a size cap, so a malformed response
 * is a 400 before any decoding, never a 500.
 */

/** Unpadded or padded base64url, as WebAuthn's JSON forms encode binary values. */
const base64url = (maxLength: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(maxLength, `must be at most ${maxLength} characters`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/** A credential ID is at most 1023 bytes (WebAuthn §5.1): 1364 base64url characters. */
const credentialId = base64url(1400);

/** Transports are hints for the browser; an unknown one from a newer browser is kept out, not refused. */
export const AUTHENTICATOR_TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;
export type AuthenticatorTransport = (typeof AUTHENTICATOR_TRANSPORTS)[number];

export function isKnownTransport(value: string): value is AuthenticatorTransport {
  return (AUTHENTICATOR_TRANSPORTS as readonly string[]).includes(value);
}

const transports = z
  .array(z.string().max(32))
  .max(16)
  .optional()
  .transform((values) => (values ?? []).filter(isKnownTransport));

/** The server reads no client extension output (credProps is advisory): dropped here, whatever was sent. */
const clientExtensionResults = z
  .record(z.string(), z.unknown())
  .optional()
  .transform((): AuthenticationExtensionsClientOutputs => ({}));

const credentialFields = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
};

export const registrationResponseSchema = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(8192),
      attestationObject: base64url(32_768),
      authenticatorData: base64url(16_384).optional(),
      transports,
      publicKeyAlgorithm: z.int().optional(),
      publicKey: base64url(8192).optional(),
    }),
  })
  .meta({ id: "PasskeyRegistrationResponse", description: "RegistrationResponseJSON: what `navigator.credentials.create()` returned, as `toJSON()` encodes it." });

export const authenticationResponseSchema = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(8192),
      authenticatorData: base64url(16_384),
      signature: base64url(2048),
      userHandle: base64url(128).optional(),
    }),
  })
  .meta({ id: "PasskeyAuthenticationResponse", description: "AuthenticationResponseJSON: what `navigator.credentials.get()` returned, as `toJSON()` encodes it." });

export type RegistrationResponse = z.output<typeof registrationResponseSchema>;
export type AuthenticationResponse = z.output<typeof authenticationResponseSchema>;

export const passkeyNameSchema = personNameSchema.min(1, "must not be empty");

export const registerPasskeyBody = z
  .strictObject({
    response: registrationResponseSchema,
    name: passkeyNameSchema.optional().meta({ description: "What the user calls it; defaults to “Passkey”, numbered when the user has others." }),
  })
  .meta({ id: "RegisterPasskeyRequest" });

export const renamePasskeyBody = z.strictObject({ name: passkeyNameSchema }).meta({ id: "RenamePasskeyRequest" });

export const passkeyParams = z.object({ passkeyId: z.uuid("must be a UUID") });

export const passkeyAssertionBody = z.strictObject({ response: authenticationResponseSchema }).meta({ id: "PasskeyAssertionRequest" });

export const mfaTokenBody = z.strictObject({ mfaToken: z.string().min(1, "must not be empty").max(512) }).meta({ id: "MfaTokenRequest" });

export const passkeySecondFactorBody = z
  .strictObject({ mfaToken: mfaTokenBody.shape.mfaToken, response: authenticationResponseSchema })
  .meta({ id: "PasskeySecondFactorRequest" });

export const passkeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    deviceType: z.enum(["singleDevice", "multiDevice"]).meta({ description: "`multiDevice`: the passkey may be synced to the user's other devices." }),
    backedUp: z.boolean().meta({ description: "The authenticator last said the passkey is backed up (synced)." }),
    transports: z.array(z.enum(AUTHENTICATOR_TRANSPORTS)),
  })
  .meta({ id: "Passkey" });

export const passkeyListSchema = z.object({ items: z.array(passkeySchema) }).meta({ id: "PasskeyList" });

const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.string().meta({ description: "`public-key`" }),
  transports: z.array(z.string()).optional(),
});

/** Client extension inputs; the browser passes them to the authenticator as they are. */
const extensionInputsSchema = z
  .object({ credProps: z.boolean().optional().meta({ description: "Asks the browser to say whether the credential is discoverable." }) })
  .optional();

export const creationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(credentialDescriptorSchema).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    attestation: z.string().optional(),
    extensions: extensionInputsSchema,
    hints: z.array(z.string()).optional(),
  })
  .meta({
    id: "PasskeyCreationOptions",
    description:
      "PublicKeyCredentialCreationOptionsJSON (WebAuthn Level 3): give it to `PublicKeyCredential.parseCreationOptionsFromJSON()` and `navigator.credentials.create()`, or to @simplewebauthn/browser's `startRegistration({optionsJSON})`.",
  });

export const requestOptionsSchema = z
  .object({
    challenge: z.string(),
    rpId: z.string().optional(),
    timeout: z.number().optional(),
    allowCredentials: z.array(credentialDescriptorSchema).optional(),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: extensionInputsSchema,
  })
  .meta({
    id: "PasskeyRequestOptions",
    description:
      "PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3): give it to `PublicKeyCredential.parseRequestOptionsFromJSON()` and `navigator.credentials.get()`, or to @simplewebauthn/browser's `startAuthentication({optionsJSON})`.",
  });

export const authenticationOptionsSchema = z.object({ options: requestOptionsSchema }).meta({ id: "PasskeyAuthenticationOptions" });
