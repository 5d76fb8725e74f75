import { z } from "zod";
import { sessionStateSchema } from "../sessions/gates";
import { ACCESS_TOKEN_CLAIMS } from "../tokens/schemas";
import { emailSchema } from "../users/email";
import { metadataBagSchema } from "../users/metadata";
import { clientUserSchema, LOCALES, passwordInputSchema, personNameSchema } from "../users/schemas";

const opaqueToken = z.string().min(1, "must not be empty").max(200, "is too long");
const codeInput = z.string().max(20, "is too long").meta({ description: "The 6-digit code from the email.", example: "123456" });

/** `?_is_native=true` makes session responses carry `sessionToken` for apps without cookies. */
export const nativeQuery = z.object({
  _is_native: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .optional()
    .transform((value) => value === "true" || value === "1"),
});

export const signUpBody = z
  .strictObject({
    email: emailSchema,
    password: passwordInputSchema,
    name: personNameSchema.max(200).optional().meta({ description: "Split into first name (first word) and last name (the rest)." }),
    captchaToken: z.string().max(4096).optional(),
    legalConsentAccepted: z.boolean().optional(),
    unsafeMetadata: metadataBagSchema.optional().meta({ description: "At most 512 bytes serialized." }),
    locale: z.enum(LOCALES).optional(),
  })
  .meta({ id: "SignUpRequest" });

export const signUpResponse = z
  .object({ token: z.string(), email: z.string() })
  .meta({ id: "SignUpStarted", description: "Pass `token` with the emailed code to /auth/signup/verify." });

export const verifySignUpBody = z.strictObject({ token: opaqueToken, code: codeInput }).meta({ id: "VerifySignUpRequest" });
export const resendSignUpBody = z.strictObject({ token: opaqueToken }).meta({ id: "ResendSignUpRequest" });

export const loginBody = z
  .strictObject({
    email: z.string().min(1, "must not be empty").pipe(emailSchema),
    password: z.string().min(1, "must not be empty").max(1024, "is too long"),
  })
  .meta({ id: "LoginRequest" });

export const sessionOpenedSchema = z
  .object({
    accessToken: z
      .string()
      .nullable()
      .meta({ description: `Null while the session is PENDING: clear the gates first. ${ACCESS_TOKEN_CLAIMS}` }),
    expiresAt: z.iso.datetime().nullable(),
    session: sessionStateSchema,
    user: clientUserSchema,
    sessionToken: z.string().optional().meta({ description: "Only with `_is_native=true`: send as `Authorization: Bearer`." }),
  })
  .meta({ id: "SessionOpened", description: "A session exists and the cookie is set." });

const SECOND_FACTORS = ["totp", "recovery_code", "passkey"] as const;

/**
 * Every way into a session answers with one of these (CONTRACT §3): the session,
 * or — with no cookie set — the second factor still to give, or the enrollment
 * still to do when the environment requires MFA.
 */
export const sessionEstablishedSchema = z
  .union([
    sessionOpenedSchema,
    z
      .object({ status: z.literal("needs_second_factor"), mfaToken: z.string(), factors: z.array(z.enum(SECOND_FACTORS)) })
      .meta({ id: "SecondFactorRequired", description: "Answer with `POST /_svc/auth/mfa/verify {mfaToken, code}`; no session yet." }),
    z
      .object({ status: z.literal("needs_mfa_enrollment"), mfaToken: z.string() })
      .meta({ id: "MfaEnrollmentRequired", description: "The environment requires MFA: enroll with `POST /_svc/auth/mfa/enroll`; no session yet." }),
  ])
  .meta({ id: "SessionEstablished" });

export const forgotPasswordBody = z.strictObject({ email: emailSchema }).meta({ id: "ForgotPasswordRequest" });

export const resetPasswordBody = z
  .strictObject({
    email: z.string().min(1, "must not be empty").pipe(emailSchema),
    code: z.string().length(6, "must be exactly 6 characters"),
    newPassword: passwordInputSchema,
  })
  .meta({ id: "ResetPasswordRequest" });

export const acknowledgedSchema = z.object({ status: z.string() }).meta({ id: "Acknowledged" });
