import { z } from "zod";
import { acknowledgedSchema } from "../auth/schemas";
import { changePasswordBody, passwordStatusSchema } from "../auth/change-password";
import { defineOperation } from "../operation/operation";
import { mySessionSchema, mySessionsSchema } from "../sessions/my-sessions";
import { revokeAllResultSchema } from "../sessions/schemas";
import { clientUserSchema } from "./schemas";
import { dataRequestListSchema, dataRequestSchema } from "./data-requests";
import { deletionConfirmBody, deletionRequestBody, deletionRequestedSchema } from "./account-deletion";
import { addEmailAddressBody, emailAddressListSchema, emailAddressParams, emailAddressSchema } from "./email-addresses";
import { verifyEmailBody } from "./email-verification";
import { updateMeBody } from "./update-me";

const SESSION_ERRORS = ["environment_not_found", "origin_not_allowed", "unauthorized", "session_pending"] as const;
const PENDING_SESSION_ERRORS = ["environment_not_found", "origin_not_allowed", "unauthorized"] as const;

export const getMeOperation = defineOperation({
  operationId: "getMe",
  method: "get",
  path: "/_svc/users/me",
  summary: "The signed-in user",
  tags: ["Client: account"],
  auth: "session",
  response: { status: 200, description: "The user (client view: no private metadata).", schema: clientUserSchema },
  errors: [...SESSION_ERRORS],
});

export const updateMeOperation = defineOperation({
  operationId: "updateMe",
  method: "patch",
  path: "/_svc/users/me",
  summary: "Update the signed-in user's profile",
  description: "Names, locale and unsafe metadata. Public and private metadata are writable only through the Server API.",
  tags: ["Client: account"],
  auth: "session",
  body: updateMeBody,
  response: { status: 200, description: "The updated user.", schema: clientUserSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "metadata_too_large"],
});

export const getPasswordStatusOperation = defineOperation({
  operationId: "getPasswordStatus",
  method: "get",
  path: "/_svc/users/me/password",
  summary: "Whether the user has a password",
  tags: ["Client: passwords"],
  auth: "session",
  response: { status: 200, description: "Password status.", schema: passwordStatusSchema },
  errors: [...SESSION_ERRORS],
});

export const changePasswordOperation = defineOperation({
  operationId: "changePassword",
  method: "post",
  path: "/_svc/users/me/password",
  summary: "Change or set the password",
  description:
    "Needs a recent sign-in (403 reverification_required otherwise), and `currentPassword` as well when a password exists. A wrong `currentPassword` counts toward the account's failed-sign-in streak, shared with login and reverification: past `rateLimits.failedSignInThreshold` consecutive failures the change answers 429 rate_limited with Retry-After, the right password included, until the wait is over. Other sessions are revoked. Satellite sessions (other domains of the environment, GET /_svc/auth/sync) count as other sessions: called on the primary, its satellites end too; called on a satellite, that satellite and its primary are kept. The owner is emailed at the primary address as part of the change; if that email cannot be sent, nothing changes (503).",
  tags: ["Client: passwords"],
  auth: "sensitiveSession",
  // The current password is a credential: guesses through a stolen session are limited like sign-ins
  // (per user here; the account's failure streak in lib/auth/change-password.ts).
  rateLimits: [{ action: "signIn", per: "user" }],
  body: changePasswordBody,
  response: { status: 200, description: "Password status after the change.", schema: passwordStatusSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "invalid_credentials", "password_too_weak", "rate_limited", "reverification_required", "email_unavailable"],
});

export const listMySessionsOperation = defineOperation({
  operationId: "listMySessions",
  method: "get",
  path: "/_svc/users/me/sessions",
  summary: "The user's active sessions",
  tags: ["Client: session"],
  auth: "session",
  response: { status: 200, description: "Active sessions, the current one flagged.", schema: mySessionsSchema },
  errors: [...SESSION_ERRORS],
});

export const revokeMySessionOperation = defineOperation({
  operationId: "revokeMySession",
  method: "delete",
  path: "/_svc/users/me/sessions/{sessionId}",
  summary: "Revoke one of the user's sessions",
  description:
    "Signs out another device. Needs a recent sign-in (403 reverification_required otherwise): a stolen session must not sign the owner out. The caller's own cookies are untouched; to sign out this device use /auth/logout.",
  tags: ["Client: session"],
  auth: "sensitiveSession",
  params: z.object({ sessionId: z.uuid("must be a UUID") }),
  response: { status: 200, description: "The revoked session.", schema: mySessionSchema.omit({ current: true }) },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "reverification_required"],
});

export const revokeOtherSessionsOperation = defineOperation({
  operationId: "revokeOtherSessions",
  method: "post",
  path: "/_svc/users/me/sessions/revoke-others",
  summary: "Sign out everywhere else",
  description:
    "Needs a recent sign-in (403 reverification_required otherwise): a stolen session must not sign the owner out. Revokes every session of the user but the caller's. Satellite sessions (other domains of the environment, GET /_svc/auth/sync) count as other sessions: called on the primary, its satellites end too; called on a satellite, that satellite and its primary are kept.",
  tags: ["Client: session"],
  auth: "sensitiveSession",
  response: { status: 200, description: "How many sessions were revoked.", schema: revokeAllResultSchema },
  errors: [...SESSION_ERRORS, "reverification_required"],
});

export const resendVerificationOperation = defineOperation({
  operationId: "resendEmailVerification",
  method: "post",
  path: "/_svc/users/me/email-verification/resend",
  summary: "Email a link that verifies the primary address",
  description: "Clears the EMAIL_VERIFICATION gate once the link is confirmed; callable by a PENDING session.",
  tags: ["Client: account"],
  auth: "pendingSession",
  rateLimits: [{ action: "emailSends", per: "user" }],
  response: { status: 200, description: "`sent`, or `already_verified`.", schema: acknowledgedSchema },
  errors: [...PENDING_SESSION_ERRORS, "invalid_request", "rate_limited", "email_unavailable"],
});

export const openEmailVerificationLinkOperation = defineOperation({
  operationId: "openEmailVerificationLink",
  method: "get",
  path: "/_svc/users/me/email-addresses/verify",
  summary: "Email verification link target (changes nothing)",
  description:
    "The emailed link. Opening it verifies nothing, since mail scanners fetch links before people do: a browser (Accept: text/html) is sent with 303 to the hosted page /verify-email/confirm on the same host, whose button confirms; code gets `status: pending` and the address. Confirm with POST /_svc/users/me/email-addresses/verify.",
  tags: ["Client: account"],
  auth: "publishableKey",
  query: z.object({ token: verifyEmailBody.shape.token }),
  response: {
    status: 200,
    description: "The link is live; `email` is the address it would verify.",
    schema: z
      .object({
        status: z.literal("pending"),
        email: z.string(),
        account: z.string().nullable().meta({ description: "The primary address of the account the address would join, masked (`a•••@example.com`)." }),
      })
      .meta({ id: "EmailVerificationPending" }),
  },
  errors: ["environment_not_found", "invalid_request", "invalid_code"],
});

export const verifyEmailAddressOperation = defineOperation({
  operationId: "verifyEmailAddress",
  method: "post",
  path: "/_svc/users/me/email-addresses/verify",
  summary: "Confirm an emailed verification link",
  description:
    "The token alone proves the mailbox, so no session is needed. Single use. Fails and changes nothing when the address was removed or has lapsed (400 invalid_code), or when another account holds it by now (409 identifier_exists: whoever proves the mailbox first holds the address).",
  tags: ["Client: account"],
  auth: "publishableKey",
  body: verifyEmailBody,
  response: {
    status: 200,
    description: "The address is verified.",
    schema: z.object({ status: z.literal("verified"), email: z.string() }).meta({ id: "EmailVerified" }),
  },
  errors: ["environment_not_found", "origin_not_allowed", "invalid_request", "invalid_code", "identifier_exists"],
});

const EMAIL_TAGS = ["Client: email addresses"];

export const listEmailAddressesOperation = defineOperation({
  operationId: "listEmailAddresses",
  method: "get",
  path: "/_svc/users/me/email-addresses",
  summary: "The user's email addresses",
  tags: EMAIL_TAGS,
  auth: "session",
  response: { status: 200, description: "Addresses, oldest first.", schema: emailAddressListSchema },
  errors: [...SESSION_ERRORS],
});

export const addEmailAddressOperation = defineOperation({
  operationId: "addEmailAddress",
  method: "post",
  path: "/_svc/users/me/email-addresses",
  summary: "Add an email address",
  description:
    "Needs a recent sign-in (403 reverification_required otherwise). Adds a pending address, tells the primary address (email_added), and emails the new one a verification link (24 hours, single use); the pending address lapses with its link. The answer is the same whether or not another account holds the address, so it cannot be used to probe for accounts; a pending address holds nothing, and its link fails (409) if the address belongs to someone else when it is used. 409 identifier_exists only for an address already on the caller's own account.",
  tags: EMAIL_TAGS,
  auth: "sensitiveSession",
  rateLimits: [{ action: "emailSends", per: "user" }],
  body: addEmailAddressBody,
  response: { status: 200, description: "The new, pending address.", schema: emailAddressSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "identifier_exists", "rate_limited", "email_unavailable", "reverification_required"],
});

export const promoteEmailAddressOperation = defineOperation({
  operationId: "promoteEmailAddress",
  method: "post",
  path: "/_svc/users/me/email-addresses/{emailAddressId}/primary",
  summary: "Make a verified address primary",
  description:
    "Needs a recent sign-in (403 reverification_required otherwise). The old primary address and the new one are told (primary_email_changed) as part of the change; if that email cannot be sent, nothing changes (503).",
  tags: EMAIL_TAGS,
  auth: "sensitiveSession",
  params: emailAddressParams,
  response: { status: 200, description: "The address, now primary.", schema: emailAddressSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "reverification_required", "email_unavailable"],
});

export const resendEmailAddressOperation = defineOperation({
  operationId: "resendEmailAddressVerification",
  method: "post",
  path: "/_svc/users/me/email-addresses/{emailAddressId}/resend",
  summary: "Re-send the verification link",
  description: "A new link (24 hours); the pending address now lapses with it.",
  tags: EMAIL_TAGS,
  auth: "session",
  rateLimits: [{ action: "emailSends", per: "user" }],
  params: emailAddressParams,
  response: { status: 200, description: "The pending address.", schema: emailAddressSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "rate_limited", "email_unavailable"],
});

export const removeEmailAddressOperation = defineOperation({
  operationId: "removeEmailAddress",
  method: "delete",
  path: "/_svc/users/me/email-addresses/{emailAddressId}",
  summary: "Remove a non-primary address",
  description: "Needs a recent sign-in (403 reverification_required otherwise).",
  tags: EMAIL_TAGS,
  auth: "sensitiveSession",
  params: emailAddressParams,
  response: { status: 200, description: "Removed.", schema: acknowledgedSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "reverification_required"],
});

export const requestDeletionOperation = defineOperation({
  operationId: "requestAccountDeletion",
  method: "post",
  path: "/_svc/users/me/delete/request",
  summary: "Request account deletion",
  description: "Type-to-confirm with the primary email address; emails a one-time confirmation link (30 minutes). Needs a recent sign-in.",
  tags: ["Client: account"],
  auth: "sensitiveSession",
  rateLimits: [{ action: "emailSends", per: "user" }],
  body: deletionRequestBody,
  response: { status: 200, description: "The link is on its way.", schema: deletionRequestedSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "reverification_required", "rate_limited", "email_unavailable"],
});

export const confirmDeletionOperation = defineOperation({
  operationId: "confirmAccountDeletion",
  method: "post",
  path: "/_svc/users/me/delete/confirm",
  summary: "Confirm account deletion with the emailed token",
  description: "Soft-deletes the account: status deleted, every session revoked, addresses and connected provider accounts released. Clears the session cookie.",
  tags: ["Client: account"],
  auth: "publishableKey",
  body: deletionConfirmBody,
  response: { status: 200, description: "Deleted.", schema: acknowledgedSchema },
  errors: ["environment_not_found", "origin_not_allowed", "invalid_request", "invalid_code"],
});

const DATA_TAGS = ["Client: data requests"];

export const listDataRequestsOperation = defineOperation({
  operationId: "listDataRequests",
  method: "get",
  path: "/_svc/users/me/data-requests",
  summary: "The user's data requests",
  tags: DATA_TAGS,
  auth: "session",
  response: { status: 200, description: "Requests, newest first.", schema: dataRequestListSchema },
  errors: [...SESSION_ERRORS],
});

export const requestDataExportOperation = defineOperation({
  operationId: "requestDataExport",
  method: "post",
  path: "/_svc/users/me/data-requests",
  summary: "Request a copy of my data",
  description: "Builds a JSON export of everything stored about the user (no secrets, no private metadata) in a background job and emails a single-use download link (24 hours); if the email cannot be sent the job retries with growing waits, and after its last attempt the request shows `failed`. One pending request at a time.",
  tags: DATA_TAGS,
  auth: "session",
  // Refused to an impersonation session: a copy of the user's data goes to the user alone.
  impersonation: "refused",
  rateLimits: [{ action: "emailSends", per: "user" }],
  response: { status: 200, description: "The request.", schema: dataRequestSchema },
  errors: [...SESSION_ERRORS, "rate_limited"],
});

const exportParams = z.object({ dataRequestId: z.uuid("must be a UUID") });
const exportToken = z.string().min(1).max(200);

export const openDataExportLinkOperation = defineOperation({
  operationId: "openDataExportLink",
  method: "get",
  path: "/_svc/users/me/data-requests/{dataRequestId}/download",
  summary: "The emailed download link",
  description:
    "Changes nothing: mail scanners and link previews fetch links too, and the download works once. Code gets what the link would download; a browser (Accept: text/html) is sent with 303 to the hosted page whose button downloads (POST).",
  tags: DATA_TAGS,
  auth: "publishableKey",
  params: exportParams,
  query: z.object({ token: exportToken }),
  response: {
    status: 200,
    description: "The export is ready to download.",
    schema: z.object({ status: z.literal("ready"), expiresAt: z.iso.datetime() }).meta({ id: "DataExportReady" }),
  },
  errors: ["environment_not_found", "invalid_request", "invalid_code"],
});

export const downloadDataExportOperation = defineOperation({
  operationId: "downloadDataExport",
  method: "post",
  path: "/_svc/users/me/data-requests/{dataRequestId}/download",
  summary: "Download the export",
  description:
    "Works once: the export is wiped from the server when handed out. The emailed token is the credential. The body may be JSON or a plain form post (the hosted page works without JavaScript).",
  tags: DATA_TAGS,
  auth: "publishableKey",
  params: exportParams,
  body: z.strictObject({ token: exportToken }).meta({ id: "DownloadDataExportRequest" }),
  formBody: true,
  response: { status: 200, description: "The export (JSON attachment).", schema: z.record(z.string(), z.unknown()).meta({ id: "DataExport" }) },
  errors: ["environment_not_found", "origin_not_allowed", "invalid_request", "invalid_code"],
});
