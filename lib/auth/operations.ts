import { defineOperation } from "../operation/operation";
import { bootProbeSchema } from "../sessions/boot-probe";
import { reverifiedSchema, reverifyBody } from "../sessions/reverification";
import { sessionStateSchema } from "../sessions/gates";
import { legalSchema, publicEnvironmentSchema } from "../environments/public-environment";
import {
  acknowledgedSchema,
  forgotPasswordBody,
  loginBody,
  nativeQuery,
  resendSignUpBody,
  resetPasswordBody,
  sessionEstablishedSchema,
  signUpBody,
  signUpResponse,
  verifySignUpBody,
} from "./schemas";

const tags = ["Client: sign-up and sign-in"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;

export const bootProbeOperation = defineOperation({
  operationId: "getClient",
  method: "get",
  path: "/_svc/client",
  summary: "Boot probe: who is signed in",
  description: "Always 200. `authenticated` is true only with a live session cookie (or native bearer) for this environment.",
  tags: ["Client: session"],
  auth: "anyClient",
  response: { status: 200, description: "The client state.", schema: bootProbeSchema },
  errors: [],
});

export const signUpOperation = defineOperation({
  operationId: "signUp",
  method: "post",
  path: "/_svc/auth/signup",
  summary: "Begin sign-up",
  description: "Validates, then emails a 6-digit code (10 minutes, 5 wrong guesses). No user or session exists until the code is verified. An address that already has an account receives a notice instead; the response is identical. Starting a sign-up ends the address's older pending sign-ups (their tokens answer invalid_code). Code emails count against the address's daily cap (`rateLimits.codeSendsPerEmail`, default 10 a day, with resends): over it, 429 rate_limited.",
  tags,
  auth: "publishableKey",
  query: nativeQuery,
  body: signUpBody,
  response: { status: 200, description: "The sign-up token to verify with.", schema: signUpResponse },
  errors: [...CLIENT, "invalid_request", "password_too_weak", "metadata_too_large", "legal_consent_required", "forbidden", "rate_limited", "email_unavailable"],
});

export const verifySignUpOperation = defineOperation({
  operationId: "verifySignUp",
  method: "post",
  path: "/_svc/auth/signup/verify",
  summary: "Verify the sign-up code",
  description: "Creates the user and the session atomically; sets the session cookie. A wrong code answers 400 invalid_code and counts against the token (5) and against the address across all its sign-up tokens (`rateLimits.codeFailuresPerEmail`, default 20 a day); over the address's cap every try answers 429 rate_limited, even with the right code.",
  tags,
  auth: "publishableKey",
  query: nativeQuery,
  body: verifySignUpBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "identifier_exists", "rate_limited"],
});

export const resendSignUpOperation = defineOperation({
  operationId: "resendSignUpCode",
  method: "post",
  path: "/_svc/auth/signup/resend",
  summary: "Resend the sign-up code",
  description: "Emails a new code; the previous one stops working. The token's wrong guesses carry over (a token with 5 of them answers invalid_code). At most 5 codes per sign-up, and the address's daily cap (`rateLimits.codeSendsPerEmail`) applies: 429 rate_limited.",
  tags,
  auth: "publishableKey",
  body: resendSignUpBody,
  response: { status: 200, description: "The same sign-up token.", schema: signUpResponse },
  errors: [...CLIENT, "invalid_request", "invalid_code", "rate_limited", "email_unavailable"],
});

export const loginOperation = defineOperation({
  operationId: "login",
  method: "post",
  path: "/_svc/auth/login",
  summary: "Sign in with email and password",
  description: "Sets the session cookie. `_is_native=true` also returns `sessionToken`. Unknown email and wrong password answer alike. After `rateLimits.failedSignInThreshold` consecutive failures for an address, known or not, each try waits 1, 2, 4 … s (at most 15 min): 429 rate_limited with Retry-After.",
  tags,
  auth: "publishableKey",
  query: nativeQuery,
  body: loginBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_credentials", "user_banned", "rate_limited"],
});

export const logoutOperation = defineOperation({
  operationId: "logout",
  method: "post",
  path: "/_svc/auth/logout",
  summary: "Sign out this device",
  description:
    "Revokes the current session and clears the session cookie and its hint. Succeeds without a session too, and then still clears the cookie, unless it holds another environment's session: that cookie is left alone. A request with two session cookies has the session the `__Host-gh_session_bind` companion names on https, none over plain http.",
  tags,
  auth: "publishableKey",
  response: { status: 200, description: "Signed out.", schema: acknowledgedSchema },
  errors: [...CLIENT],
});

export const forgotPasswordOperation = defineOperation({
  operationId: "forgotPassword",
  method: "post",
  path: "/_svc/auth/forgot-password",
  summary: "Email a password-reset code",
  description: "Always 200 with the same body, whether or not the address has an account. A new code ends the address's older reset codes. Past the address's daily cap (`rateLimits.codeSendsPerEmail`, default 10) the answer is still 200 and no email is sent.",
  tags: ["Client: passwords"],
  auth: "publishableKey",
  body: forgotPasswordBody,
  response: { status: 200, description: "Accepted.", schema: acknowledgedSchema },
  errors: [...CLIENT, "invalid_request", "rate_limited"],
});

export const resetPasswordOperation = defineOperation({
  operationId: "resetPassword",
  method: "post",
  path: "/_svc/auth/reset-password",
  summary: "Reset the password with the emailed code",
  description: "Revokes every session and signs the user in afresh. A user with a second factor (or, where MFA is required, without one yet) gets `needs_second_factor` (or `needs_mfa_enrollment`) instead, and nothing changes until it is answered: the old password and sessions keep working, and the new password, the revocation and the notice take effect when POST /_svc/auth/mfa/verify (or the passkey or enrollment confirmation) succeeds with that mfaToken, provided no password change, reset or revocation of all sessions came in between. An unknown address, an address without a live code and a wrong code answer the same 400 invalid_code after the same work (the password policy check and hash run first), and each counts against the IP and the address's daily cap (`rateLimits.codeFailuresPerEmail`, default 20): past it, 429 rate_limited for every address alike. A user banned since the code was sent gets 403 user_banned with the right code; nothing changes. A notice goes to the primary address, and to the address the code was sent to when that is another, as part of the change (503 email_unavailable: nothing changes).",
  tags: ["Client: passwords"],
  auth: "publishableKey",
  query: nativeQuery,
  body: resetPasswordBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "password_too_weak", "user_banned", "rate_limited", "email_unavailable"],
});

export const getLegalOperation = defineOperation({
  operationId: "getLegal",
  method: "get",
  path: "/_svc/legal",
  summary: "Legal documents and whether consent is required",
  tags: ["Client: environment"],
  auth: "publishableKey",
  response: { status: 200, description: "The legal settings.", schema: legalSchema },
  errors: [...CLIENT],
});

export const acceptLegalOperation = defineOperation({
  operationId: "acceptLegal",
  method: "post",
  path: "/_svc/auth/legal/accept",
  summary: "Accept the current legal documents",
  description: "Clears the LEGAL_ACCEPTANCE gate; callable by a PENDING session.",
  tags: ["Client: session"],
  auth: "pendingSession",
  // Refused to an impersonation session: consent is the user's own word.
  impersonation: "refused",
  response: { status: 200, description: "The session state after accepting.", schema: sessionStateSchema },
  errors: [...CLIENT, "unauthorized"],
});

export const getEnvironmentOperation = defineOperation({
  operationId: "getPublicEnvironment",
  method: "get",
  path: "/_svc/environment",
  summary: "Public environment configuration",
  tags: ["Client: environment"],
  auth: "publishableKey",
  response: { status: 200, description: "What an SDK needs to render sign-up and sign-in.", schema: publicEnvironmentSchema },
  errors: [...CLIENT],
});

export const reverifyOperation = defineOperation({
  operationId: "reverify",
  method: "post",
  path: "/_svc/auth/reverify",
  summary: "Prove a factor again",
  description:
    "Opens the window (sessions.reverificationSeconds, default 10 minutes) in which sensitive operations are allowed. Takes the password (when the user has one) and, with two-step verification on, a `code` as well: an authenticator code or a recovery code, which is spent. A missing part answers 400 invalid_request naming the field; a wrong password or code 401 invalid_credentials, and failures count like sign-in failures, per IP, per user and toward the account's throttle. Passkeys reverify through their own ceremony. Callable by a PENDING session, so a session held by the MFA_ENROLLMENT gate can reverify before enrolling; it stays PENDING until its gates are cleared.",
  tags: ["Client: session"],
  auth: "pendingSession",
  // Refused to an impersonation session: no one can prove the user's factors for them.
  impersonation: "refused",
  rateLimits: [{ action: "signIn", per: "user" }],
  body: reverifyBody,
  response: { status: 200, description: "Reverified.", schema: reverifiedSchema },
  errors: [...CLIENT, "unauthorized", "invalid_request", "invalid_credentials", "rate_limited"],
});
