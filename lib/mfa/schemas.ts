import { z } from "zod";
import { sessionOpenedSchema } from "../auth/schemas";
import { RECOVERY_CODE_COUNT } from "./recovery-codes";

const mfaToken = z
  .string()
  .min(1, "must not be empty")
  .max(200, "is too long")
  .meta({ description: "The `mfaToken` of the sign-in answer (5 minutes, single use, 5 wrong codes)." });

const secondFactorCode = z
  .string()
  .min(1, "must not be empty")
  .max(64, "is too long")
  .meta({
    description: "The 6-digit code of the authenticator app, or one of the recovery codes (`xxxxx-xxxxx`; case, spaces and dashes do not matter).",
    example: "123456",
  });

const authenticatorCode = z
  .string()
  .min(1, "must not be empty")
  .max(64, "is too long")
  .meta({ description: "The 6-digit code the authenticator app shows for the new secret.", example: "123456" });

export const confirmTotpBody = z.strictObject({ code: authenticatorCode }).meta({ id: "ConfirmTotpRequest" });

export const disableMfaBody = z.strictObject({ code: secondFactorCode }).meta({ id: "DisableMfaRequest" });

export const verifyMfaBody = z.strictObject({ mfaToken, code: secondFactorCode }).meta({ id: "VerifyMfaRequest" });

export const startMfaEnrollmentBody = z.strictObject({ mfaToken }).meta({ id: "StartMfaEnrollmentRequest" });

export const confirmMfaEnrollmentBody = z.strictObject({ mfaToken, code: authenticatorCode }).meta({ id: "ConfirmMfaEnrollmentRequest" });

export const totpProvisioningSchema = z
  .object({
    secret: z.string().meta({ description: "The Base32 secret, for typing into the app by hand." }),
    otpauthUri: z.string().meta({ description: "`otpauth://totp/…` (issuer: the application name; label: the user's email)." }),
    qrCodeSvg: z.string().meta({ description: "The URI as a QR code: an SVG data URI (`data:image/svg+xml;base64,…`) for an `<img src>`." }),
  })
  .meta({ id: "TotpEnrollment", description: "Add the account to an authenticator app, then confirm with its first code." });

const recoveryCodeList = z
  .array(z.string())
  .length(RECOVERY_CODE_COUNT)
  .meta({ description: "Ten single-use codes, shown this once: each signs in in place of an authenticator code." });

export const recoveryCodesSchema = z.object({ recoveryCodes: recoveryCodeList }).meta({ id: "RecoveryCodes" });

export const mfaStatusSchema = z
  .object({
    enabled: z.boolean().meta({ description: "Whether signing in asks this user for a second factor." }),
    totp: z.boolean().meta({ description: "Whether an authenticator app is set up (confirmed)." }),
    recoveryCodesLeft: z.int().min(0),
    passkeys: z.int().min(0),
    required: z.boolean().meta({ description: "Whether the environment requires every user to have a second factor (`mfa.required`)." }),
  })
  .meta({ id: "MfaStatus" });

export const enrolledSessionSchema = sessionOpenedSchema
  .extend({ recoveryCodes: recoveryCodeList })
  .meta({ id: "MfaEnrollmentCompleted", description: "The authenticator app is on; the session exists and the cookie is set." });
