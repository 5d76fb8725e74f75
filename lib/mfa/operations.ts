import { sessionEstablishedSchema, nativeQuery } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import {
  confirmMfaEnrollmentBody,
  confirmTotpBody,
  disableMfaBody,
  enrolledSessionSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
  startMfaEnrollmentBody,
  totpProvisioningSchema,
  verifyMfaBody,
} from "./schemas";

const tags = ["Client: two-step verification"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;
const SESSION = [...CLIENT, "unauthorized", "session_pending"] as const;

export const getMfaStatusOperation = defineOperation({
  operationId: "getMfaStatus",
  method: "get",
  path: "/_svc/users/me/mfa",
  summary: "The signed-in user's second factors",
  description:
    "`enabled`: signing in asks this user for a second factor (an authenticator app is on, or, where the environment requires MFA, a passkey). `totp`: an authenticator app is confirmed. `recoveryCodesLeft`: unused recovery codes. `passkeys`: registered passkeys. `required`: the environment requires a second factor of everyone.",
  tags,
  auth: "session",
  response: { status: 200, description: "The user's second factors.", schema: mfaStatusSchema },
  errors: [...SESSION],
});

export const startTotpEnrollmentOperation = defineOperation({
  operationId: "startTotpEnrollment",
  method: "post",
  path: "/_svc/users/me/mfa/totp",
  summary: "Start setting up an authenticator app",
  description:
    "Returns a new secret, its `otpauth://` URI (issuer: the application name; label: the user's email) and the URI as a QR code (SVG data URI). Nothing is on until POST /_svc/users/me/mfa/totp/confirm accepts a code of the app; calling this again replaces the pending secret, so only the QR code shown last works. Needs a recent sign-in (403 reverification_required). 409 mfa_already_enabled when an authenticator app is already on: turn it off first (DELETE /_svc/users/me/mfa) to replace it. Callable by a session held by the MFA_ENROLLMENT gate (an environment that requires MFA).",
  tags,
  auth: "sensitiveSession",
  clearsGate: "MFA_ENROLLMENT",
  response: { status: 200, description: "The secret to add to the app.", schema: totpProvisioningSchema },
  errors: [...SESSION, "reverification_required", "mfa_already_enabled"],
});

export const confirmTotpEnrollmentOperation = defineOperation({
  operationId: "confirmTotpEnrollment",
  method: "post",
  path: "/_svc/users/me/mfa/totp/confirm",
  summary: "Turn on the authenticator app with its first code",
  description:
    "Confirms the pending secret with a current code of the app (±30 s of server time) and turns two-step verification on: every sign-in then asks for a code. Returns ten recovery codes, shown this once. A notice goes to the primary address as part of the change; if it cannot be sent, nothing changes (503 email_unavailable). 400 invalid_code for a wrong code or when no setup was started; 409 mfa_already_enabled when the app is on already. Needs a recent sign-in. Clears the MFA_ENROLLMENT gate: the session is ACTIVE after.",
  tags,
  auth: "sensitiveSession",
  clearsGate: "MFA_ENROLLMENT",
  rateLimits: [{ action: "codeAttempts", per: "user" }],
  body: confirmTotpBody,
  response: { status: 200, description: "Two-step verification is on.", schema: recoveryCodesSchema },
  errors: [...SESSION, "invalid_request", "invalid_code", "reverification_required", "mfa_already_enabled", "rate_limited", "email_unavailable"],
});

export const regenerateRecoveryCodesOperation = defineOperation({
  operationId: "regenerateRecoveryCodes",
  method: "post",
  path: "/_svc/users/me/mfa/recovery-codes",
  summary: "Replace the recovery codes",
  description:
    "Ten new recovery codes, shown this once; the old ones stop working in the same change. A notice goes to the primary address as part of the change (503 email_unavailable: nothing changes). 409 mfa_not_enabled without an authenticator app. Needs a recent sign-in.",
  tags,
  auth: "sensitiveSession",
  rateLimits: [{ action: "emailSends", per: "user" }],
  response: { status: 200, description: "The new codes.", schema: recoveryCodesSchema },
  errors: [...SESSION, "reverification_required", "mfa_not_enabled", "rate_limited", "email_unavailable"],
});

export const disableMfaOperation = defineOperation({
  operationId: "disableMfa",
  method: "delete",
  path: "/_svc/users/me/mfa",
  summary: "Turn two-step verification off",
  description:
    "Removes the authenticator app and the recovery codes. Takes a JSON body `{code}`: a current code of the app or an unused recovery code (which is spent), besides a recent sign-in. Wrong codes (400 invalid_code) count toward the account's sign-in throttle. 409 mfa_not_enabled without an authenticator app; 403 mfa_required where the environment requires MFA and the user has no passkey to keep. A notice goes to the primary address as part of the change (503 email_unavailable: nothing changes). Passkeys are managed on their own.",
  tags,
  auth: "sensitiveSession",
  rateLimits: [{ action: "codeAttempts", per: "user" }],
  body: disableMfaBody,
  response: { status: 200, description: "The user's second factors after the change.", schema: mfaStatusSchema },
  errors: [...SESSION, "invalid_request", "invalid_code", "reverification_required", "mfa_not_enabled", "mfa_required", "rate_limited", "email_unavailable"],
});

export const verifyMfaOperation = defineOperation({
  operationId: "verifyMfa",
  method: "post",
  path: "/_svc/auth/mfa/verify",
  summary: "Finish signing in with a second factor",
  description:
    "Answers `needs_second_factor` (from login, sign-up verification or password reset) with the `mfaToken` and a code: 6 digits are an authenticator code (±30 s of server time, each accepted once: a replayed code fails, also under concurrent tries), anything else a recovery code (each works once). Answers like login: sets the session cookie; `_is_native=true` also returns `sessionToken`. The mfaToken lives 5 minutes, is single use and dies after 5 wrong codes (400 invalid_code for all alike). Attempts count against `rateLimits.codeAttempts` per IP and per account (any token of it). Wrong codes also count toward the account's sign-in throttle: past `rateLimits.failedSignInThreshold` consecutive failures, 429 rate_limited here and at login. After a password reset, this is what applies the new password, revokes every session and sends the notice (503 email_unavailable: nothing changes).",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "codeAttempts" }],
    query: nativeQuery,
  body: verifyMfaBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "user_banned", "rate_limited", "email_unavailable"],
});

export const startMfaEnrollmentOperation = defineOperation({
  operationId: "startMfaEnrollment",
  method: "post",
  path: "/_svc/auth/mfa/enroll",
  summary: "Set up an authenticator app during sign-in",
  description:
    "For `needs_mfa_enrollment` (an environment that requires MFA, a user without a second factor): returns a new secret, its `otpauth://` URI and QR code for the signing-in user. The mfaToken stays live for POST /_svc/auth/mfa/enroll/confirm; calling this again replaces the pending secret. 400 invalid_code for an unknown, expired or used token.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  body: startMfaEnrollmentBody,
  response: { status: 200, description: "The secret to add to the app.", schema: totpProvisioningSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "mfa_already_enabled", "rate_limited"],
});

export const confirmMfaEnrollmentOperation = defineOperation({
  operationId: "confirmMfaEnrollment",
  method: "post",
  path: "/_svc/auth/mfa/enroll/confirm",
  summary: "Finish signing in by confirming the authenticator app",
  description:
    "Confirms the secret from POST /_svc/auth/mfa/enroll with a current code of the app, turns two-step verification on and opens the session, in one step: answers like login (cookie; `sessionToken` with `_is_native=true`) plus ten recovery codes, shown this once. A notice goes to the primary address as part of it (503 email_unavailable: nothing changes). After a password reset, this is what applies the new password and revokes every session. A wrong code counts against the mfaToken (5, then 400 invalid_code for every try).",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "codeAttempts" }],
  query: nativeQuery,
  body: confirmMfaEnrollmentBody,
  response: { status: 200, description: "The new session and the recovery codes.", schema: enrolledSessionSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "mfa_already_enabled", "user_banned", "rate_limited", "email_unavailable"],
});
