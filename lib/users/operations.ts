import { defineOperation } from "../operation/operation";
import {
  createUserBody,
  pageQuery,
  searchUsersBody,
  serverUserSchema,
  updateMetadataBody,
  updateUserBody,
  userCountSchema,
  userIdParams,
  userPageSchema,
} from "./schemas";

const tags = ["Users"];
const ON_USER = ["invalid_request", "unauthorized", "environment_mismatch", "resource_not_found"] as const;

export const createUserOperation = defineOperation({
  operationId: "createUser",
  method: "post",
  path: "/api/server/v1/users",
  summary: "Create a user",
  description: "Creates an end-user. All fields are optional; the password is hashed with argon2id after the environment's password policy accepts it.",
  tags,
  auth: "server",
  operatorPermission: "write",
  body: createUserBody,
  response: { status: 201, description: "The created user.", schema: serverUserSchema },
  errors: ["invalid_request", "password_too_weak", "metadata_too_large", "unauthorized", "identifier_exists", "payload_too_large"],
});

export const searchUsersOperation = defineOperation({
  operationId: "searchUsers",
  method: "post",
  path: "/api/server/v1/users/search",
  summary: "Search users",
  description: "Filters users (tri-state filters in the body) and pages through them newest first with an opaque keyset cursor.",
  tags,
  auth: "server",
  operatorPermission: "read",
  query: pageQuery,
  body: searchUsersBody,
  response: { status: 200, description: "One page of users.", schema: userPageSchema },
  errors: ["invalid_request", "unauthorized"],
});

export const countUsersOperation = defineOperation({
  operationId: "countUsers",
  method: "get",
  path: "/api/server/v1/users/count",
  summary: "Count users",
  description: "How many users the environment has (active and banned; deleted users are not counted), like Clerk's `GET /users/count`.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The number of users.", schema: userCountSchema },
  errors: ["unauthorized"],
});

export const getUserOperation = defineOperation({
  operationId: "getUser",
  method: "get",
  path: "/api/server/v1/users/{userId}",
  summary: "Get a user",
  description: "Returns the user, including deleted users (status `deleted`, `deletedAt` set).",
  tags,
  auth: "server",
  operatorPermission: "read",
  params: userIdParams,
  response: { status: 200, description: "The user.", schema: serverUserSchema },
  errors: [...ON_USER],
});

export const updateUserOperation = defineOperation({
  operationId: "updateUser",
  method: "patch",
  path: "/api/server/v1/users/{userId}",
  summary: "Update a user",
  description: "Updates names, locale, primary email (replacing the old address, which is released) and password. An email the user already holds as a secondary address is promoted to primary (not 409). Setting a password revokes every session of the user, in the same transaction. null clears a name or the locale.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  body: updateUserBody,
  response: { status: 200, description: "The updated user.", schema: serverUserSchema },
  errors: [...ON_USER, "password_too_weak", "identifier_exists"],
});

export const deleteUserOperation = defineOperation({
  operationId: "deleteUser",
  method: "delete",
  path: "/api/server/v1/users/{userId}",
  summary: "Delete a user",
  description:
    "Soft delete: status `deleted`, `deletedAt` set, every session revoked, email addresses and connected provider accounts released for re-use (the next sign-in with such a provider account starts afresh), organization memberships ended: where the user was the last owner, the remaining member whose role grants the most `org:*` permissions (then the longest-standing) becomes owner, and an organization with no one left is deleted. Idempotent.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  response: { status: 200, description: "The deleted user.", schema: serverUserSchema },
  errors: [...ON_USER],
});

export const updateUserMetadataOperation = defineOperation({
  operationId: "updateUserMetadata",
  method: "patch",
  path: "/api/server/v1/users/{userId}/metadata",
  summary: "Update a user's metadata",
  description: "Deep-merges each bag given; null removes a key at any depth; an omitted bag is unchanged. Limits (UTF-8 JSON of the merged result): public 512, private 4096, unsafe 512 bytes.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  body: updateMetadataBody,
  response: { status: 200, description: "The updated user.", schema: serverUserSchema },
  errors: [...ON_USER, "metadata_too_large"],
});

export const banUserOperation = defineOperation({
  operationId: "banUser",
  method: "post",
  path: "/api/server/v1/users/{userId}/ban",
  summary: "Ban a user",
  description: "Marks the user banned and revokes all their sessions in one transaction. Banned users cannot sign in (403 user_banned).",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  response: { status: 200, description: "The banned user.", schema: serverUserSchema },
  errors: [...ON_USER],
});

export const unbanUserOperation = defineOperation({
  operationId: "unbanUser",
  method: "post",
  path: "/api/server/v1/users/{userId}/unban",
  summary: "Unban a user",
  description: "Reverses a ban; the user can sign in again. Unbanning an active user changes nothing.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  response: { status: 200, description: "The active user.", schema: serverUserSchema },
  errors: [...ON_USER],
});

export const resetUserMfaOperation = defineOperation({
  operationId: "resetUserMfa",
  method: "delete",
  path: "/api/server/v1/users/{userId}/mfa",
  summary: "Reset a user's second factors",
  description:
    "For a user who lost their authenticator app and recovery codes: removes the authenticator app, the recovery codes and every passkey, ends sign-ins waiting on a second factor, and revokes every session of the user (reason `mfa_reset`), in one transaction with a `user.mfa_reset` event and a notice to the user's primary address (if it cannot be sent, nothing changes: 503 email_unavailable). The user's next sign-in asks only for the password, or, where the environment requires MFA, for a new enrollment. Deleted users: 404.",
  tags,
  auth: "server",
  operatorPermission: "write",
  params: userIdParams,
  response: { status: 200, description: "The user, without second factors.", schema: serverUserSchema },
  errors: [...ON_USER, "email_unavailable"],
});
