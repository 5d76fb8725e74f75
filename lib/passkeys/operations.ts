import { acknowledgedSchema, nativeQuery, sessionEstablishedSchema } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import { reverifiedSchema } from "../sessions/reverification";
import {
  authenticationOptionsSchema,
  creationOptionsSchema,
  mfaTokenBody,
  passkeyListSchema,
  passkeyParams,
  passkeySchema,
  passkeySecondFactorBody,
  passkeyAssertionBody,
  registerPasskeyBody,
  renamePasskeyBody,
} from "./schemas";

const tags = ["Client: passkeys"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;
const SESSION_ERRORS = [...CLIENT, "unauthorized", "session_pending"] as const;

/** Said once in every ceremony's description: where the RP ID and the accepted origins come from. */
const RELYING_PARTY =
  "The RP ID is the host the environment is reached on for this request: the frontend host the request came in on, else PUBLIC_URL's host (when the environment is named by `X-API-Key`). Responses are accepted only from the environment's own origins (its frontend hosts, PUBLIC_URL when reached by key) and from allowed origins on the RP ID or its subdomains; the request's Origin header is not trusted for this. Options expire with their challenge after 5 minutes; a challenge answers one response.";

export const passkeyRegistrationOptionsOperation = defineOperation({
  operationId: "getPasskeyRegistrationOptions",
  method: "post",
  path: "/_svc/users/me/passkeys/registration-options",
  summary: "Start adding a passkey",
  description: `Returns the options for \`navigator.credentials.create()\`: a discoverable credential (resident key required), user verification preferred, the user's existing passkeys excluded, no attestation. Send the result to POST /_svc/users/me/passkeys. Needs a recent sign-in (403 reverification_required otherwise); a session held only by the MFA_ENROLLMENT gate may call it, since a passkey enrolls a factor. ${RELYING_PARTY}`,
  tags,
  auth: "sensitiveSession",
  clearsGate: "MFA_ENROLLMENT",
  response: { status: 200, description: "PublicKeyCredentialCreationOptionsJSON.", schema: creationOptionsSchema },
  errors: [...SESSION_ERRORS, "reverification_required"],
});

export const registerPasskeyOperation = defineOperation({
  operationId: "registerPasskey",
  method: "post",
  path: "/_svc/users/me/passkeys",
  summary: "Add a passkey",
  description:
    "Takes the credential `navigator.credentials.create()` returned for options from POST /_svc/users/me/passkeys/registration-options, verifies it (challenge, origin, RP ID, user presence, key type) and stores the passkey. The owner is told at the primary address as part of the change; if that email cannot be sent, nothing is stored (503). A response that does not verify, or whose challenge is expired, used or another user's, is 400 invalid_request; a credential already registered in this environment is 409 identifier_exists. Needs a recent sign-in (403 reverification_required otherwise); a session held only by the MFA_ENROLLMENT gate may call it. At most 25 passkeys per user.",
  tags,
  auth: "sensitiveSession",
  clearsGate: "MFA_ENROLLMENT",
  body: registerPasskeyBody,
  response: { status: 201, description: "The new passkey.", schema: passkeySchema },
  errors: [...SESSION_ERRORS, "invalid_request", "identifier_exists", "reverification_required", "email_unavailable"],
});

export const listPasskeysOperation = defineOperation({
  operationId: "listPasskeys",
  method: "get",
  path: "/_svc/users/me/passkeys",
  summary: "The user's passkeys",
  tags,
  auth: "session",
  response: { status: 200, description: "Passkeys, oldest first.", schema: passkeyListSchema },
  errors: [...SESSION_ERRORS],
});

export const renamePasskeyOperation = defineOperation({
  operationId: "renamePasskey",
  method: "patch",
  path: "/_svc/users/me/passkeys/{passkeyId}",
  summary: "Rename a passkey",
  description: "Only the label the user sees changes. Another user's passkey answers 404, like one that does not exist.",
  tags,
  auth: "session",
  // Refused to an impersonation session: passkeys are the user's own.
  impersonation: "refused",
  params: passkeyParams,
  body: renamePasskeyBody,
  response: { status: 200, description: "The renamed passkey.", schema: passkeySchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found"],
});

export const deletePasskeyOperation = defineOperation({
  operationId: "deletePasskey",
  method: "delete",
  path: "/_svc/users/me/passkeys/{passkeyId}",
  summary: "Remove a passkey",
  description:
    "It can no longer sign in or answer a second-factor challenge. Needs a recent sign-in (403 reverification_required otherwise). When the environment requires MFA, the user's last factor cannot be removed (400 invalid_request): add an authenticator app or another passkey first. Another user's passkey answers 404. The primary address gets a notice with the change; if it cannot be sent, nothing changes (503 email_unavailable).",
  tags,
  auth: "sensitiveSession",
  params: passkeyParams,
  response: { status: 200, description: "Removed (`status: removed`).", schema: acknowledgedSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "reverification_required", "email_unavailable"],
});

export const passkeySignInOptionsOperation = defineOperation({
  operationId: "getPasskeySignInOptions",
  method: "post",
  path: "/_svc/auth/passkey/options",
  summary: "Start a passkey sign-in",
  description: `Returns \`{options}\` for \`navigator.credentials.get()\` with no email asked: \`allowCredentials\` is empty, so the browser offers the passkeys it holds for the RP ID (also usable with \`mediation: "conditional"\` for autofill). User verification is required. Finish with POST /_svc/auth/passkey/verify. Counts against the IP's \`rateLimits.passkeyOptions\` (default 30 a minute), not the sign-in limit: autofill asks on every page view. ${RELYING_PARTY}`,
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "passkeyOptions" }],
  response: { status: 200, description: "The request options.", schema: authenticationOptionsSchema },
  errors: [...CLIENT, "rate_limited"],
});

export const passkeySignInOperation = defineOperation({
  operationId: "signInWithPasskey",
  method: "post",
  path: "/_svc/auth/passkey/verify",
  summary: "Sign in with a passkey",
  description:
    "Takes the credential `navigator.credentials.get()` returned for options from POST /_svc/auth/passkey/options. The passkey must be registered in this environment and verify with user verification; its signature counter must move forward (when either the stored or the new value is non-zero). A passkey is a phishing-resistant proof on its own, so no second factor is asked: the session opens with `amr: [\"webauthn\"]`, sets the session cookie, and `_is_native=true` also returns `sessionToken`. Every failure (unknown passkey, bad signature, wrong origin or RP ID, a challenge expired or already used, a counter that went backwards) answers 401 invalid_credentials; a banned user gets 403 user_banned.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  query: nativeQuery,
  body: passkeyAssertionBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_credentials", "user_banned", "rate_limited"],
});

export const passkeySecondFactorOptionsOperation = defineOperation({
  operationId: "getPasskeySecondFactorOptions",
  method: "post",
  path: "/_svc/auth/mfa/passkey/options",
  summary: "Start answering a second-factor challenge with a passkey",
  description: `For a sign-in that answered \`needs_second_factor\` with \`passkey\` among its factors. Returns \`{options}\` whose \`allowCredentials\` are the user's passkeys; user verification preferred. Finish with POST /_svc/auth/mfa/passkey/verify. An unknown, expired or used mfaToken is 400 invalid_code. ${RELYING_PARTY}`,
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "passkeyOptions" }],
  body: mfaTokenBody,
  response: { status: 200, description: "The request options.", schema: authenticationOptionsSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "rate_limited"],
});

export const passkeySecondFactorOperation = defineOperation({
  operationId: "verifyPasskeySecondFactor",
  method: "post",
  path: "/_svc/auth/mfa/passkey/verify",
  summary: "Answer a second-factor challenge with a passkey",
  description:
    "Takes the mfaToken and the credential `navigator.credentials.get()` returned for options from POST /_svc/auth/mfa/passkey/options. The passkey must be the challenged user's. Answers like login: the session opens with the first factor's methods and `webauthn` in amr (aal 2), sets the cookie, and `_is_native=true` also returns `sessionToken`. Any failure answers 400 invalid_code and counts as a wrong answer against the mfaToken (5 end it). After a password reset, this is what applies the new password, revokes every session and sends the notice (503 email_unavailable: nothing changes).",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "codeAttempts" }],
  query: nativeQuery,
  body: passkeySecondFactorBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "user_banned", "rate_limited", "email_unavailable"],
});

export const passkeyReverifyOptionsOperation = defineOperation({
  operationId: "getPasskeyReverifyOptions",
  method: "post",
  path: "/_svc/auth/reverify/passkey/options",
  summary: "Start proving a passkey again",
  description: `Returns \`{options}\` whose \`allowCredentials\` are the signed-in user's passkeys; user verification preferred. Finish with POST /_svc/auth/reverify/passkey. A user without a passkey gets 400 invalid_request (use POST /_svc/auth/reverify). ${RELYING_PARTY}`,
  tags: ["Client: session"],
  auth: "pendingSession",
  // Refused to an impersonation session: no one can prove the user's factors for them.
  impersonation: "refused",
  rateLimits: [{ action: "signIn", per: "user" }],
  response: { status: 200, description: "The request options.", schema: authenticationOptionsSchema },
  errors: [...CLIENT, "unauthorized", "invalid_request", "rate_limited"],
});

export const passkeyReverifyOperation = defineOperation({
  operationId: "reverifyWithPasskey",
  method: "post",
  path: "/_svc/auth/reverify/passkey",
  summary: "Prove a passkey again",
  description:
    "Like POST /_svc/auth/reverify, with a passkey of the signed-in user instead of the password: opens the window (sessions.reverificationSeconds, default 10 minutes) in which sensitive operations are allowed, and adds `webauthn` to the session's amr. A passkey of another user, or any failure to verify, answers 401 invalid_credentials.",
  tags: ["Client: session"],
  auth: "pendingSession",
  // Refused to an impersonation session: no one can prove the user's factors for them.
  impersonation: "refused",
  rateLimits: [{ action: "signIn", per: "user" }],
  body: passkeyAssertionBody,
  response: { status: 200, description: "Reverified.", schema: reverifiedSchema },
  errors: [...CLIENT, "unauthorized", "invalid_request", "invalid_credentials", "rate_limited"],
});
