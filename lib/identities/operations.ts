import { acknowledgedSchema } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import { serverUserSchema } from "../users/schemas";
import { identityListSchema, identityParams, userIdentityParams } from "./schemas";

const tags = ["Client: identities"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;
const SESSION_ERRORS = [...CLIENT, "unauthorized", "session_pending"] as const;

export const listMyIdentitiesOperation = defineOperation({
  operationId: "listIdentities",
  method: "get",
  path: "/_svc/users/me/identities",
  summary: "The user's connected accounts",
  description:
    "The provider accounts (Google, GitHub, any OpenID Connect provider) that sign in as the user, oldest first. Connect another with GET /_svc/auth/oauth2/{provider}/link.",
  tags,
  auth: "session",
  response: { status: 200, description: "Connected accounts, oldest first.", schema: identityListSchema },
  errors: [...SESSION_ERRORS],
});

export const unlinkMyIdentityOperation = defineOperation({
  operationId: "unlinkIdentity",
  method: "delete",
  path: "/_svc/users/me/identities/{identityId}",
  summary: "Disconnect an account",
  description:
    "The provider account no longer signs in as the user; signing in with it later starts afresh. Needs a recent sign-in (403 reverification_required otherwise). Refused with 409 last_sign_in_method when it is the user's last way to sign in (no password, no other connected account, no passkey): set a password or add another way first. Another user's identity, or one of another environment, answers 404. The primary address gets a notice with the change; if it cannot be sent, nothing changes (503 email_unavailable). The user's other sessions opened by a provider sign-in end with it (`session.revoked`, reason `identity_removed`), as do its provider sign-ins still waiting for a ticket redemption or a second factor: a session records that a provider opened it, not which one, so this covers every provider the user connected; password, email-code and passkey sessions stay. The session that asks is kept.",
  tags,
  auth: "sensitiveSession",
  params: identityParams,
  response: { status: 200, description: "Disconnected (`status: removed`).", schema: acknowledgedSchema },
  errors: [...SESSION_ERRORS, "invalid_request", "resource_not_found", "reverification_required", "last_sign_in_method", "email_unavailable"],
});

export const removeUserIdentityOperation = defineOperation({
  operationId: "removeUserIdentity",
  method: "delete",
  path: "/api/server/v1/users/{userId}/identities/{identityId}",
  summary: "Disconnect a user's account",
  description:
    "Removes one of the user's connected provider accounts (listed in the user's `identities`), in one transaction with an `identity.unlinked` event and a notice to the user's primary address (if it cannot be sent, nothing changes: 503 email_unavailable). Unlike the user's own request, it may remove the last way to sign in: the user can still set a password through the password reset, or be given one. An identity of another user or environment answers 404; a user of another environment 403. The user's sessions opened by a provider sign-in end with it (`session.revoked`, reason `identity_removed`), as do its provider sign-ins still waiting for a ticket redemption or a second factor: a session records that a provider opened it, not which one, so this covers every provider the user connected; password, email-code and passkey sessions stay.",
  tags: ["Users"],
  auth: "server",
  operatorPermission: "write",
  params: userIdentityParams,
  response: { status: 200, description: "The user, without that account.", schema: serverUserSchema },
  errors: ["invalid_request", "unauthorized", "environment_mismatch", "resource_not_found", "email_unavailable"],
});
