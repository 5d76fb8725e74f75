import { defineOperation } from "../operation/operation";
import { z } from "zod";
import {
  createUserBody,
  importConfigLine,
  importUserLine,
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

/** The `error` of a refused import line: the problem object an error response would carry. */
const lineProblem = z
  .looseObject({ type: z.string(), title: z.string(), status: z.int(), detail: z.string(), code: z.string(), requestId: z.string() })
  .meta({ description: "A problem object (CONTRACT §4), as an error response's body." });

export const importUsersOperation = defineOperation({
  operationId: "importUsers",
  method: "post",
  path: "/api/server/v1/users/import",
  summary: "Import users",
  description: [
    "Creates up to 100,000 users from an NDJSON body (`Content-Type: application/x-ndjson`), one user a line with the fields of `POST /users`",
    "(`passwordDigest` + `passwordHasher` keep an existing password digest: see ImportUserLine; no re-hashing, the first sign-in upgrades it to argon2id).",
    "The first line may instead be `{\"hasherConfig\": {\"scrypt_firebase\": {signerKey, saltSeparator, rounds, memCost}}}`.",
    "The answer is 200 NDJSON, one `{line, id}` or `{line, error}` for each user line (`line` counts from 1, blank lines and a valid hasherConfig line answer nothing;",
    "`error` is a problem object: 400 invalid_request for a malformed line or digest, 409 identifier_exists for an email or externalId already taken, by another user or an earlier line).",
    "Lines are validated one by one and inserted 1,000 at a time; results stream back as each batch is written, so they are not in line order (match them by `line`). A line over 64 KiB is refused alone; past 100,000 users one 413 line ends the import.",
  ].join(" "),
  tags,
  auth: "server",
  operatorPermission: "write",
  streamBody: {
    contentType: "application/x-ndjson",
    description: "One JSON object a line: an optional hasherConfig line first, then users.",
    line: importUserLine,
    first: importConfigLine,
    example: [
      '{"hasherConfig":{"scrypt_firebase":{"signerKey":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==","saltSeparator":"Bw==","rounds":8,"memCost":14}}}',
      '{"email":"ada@example.com","externalId":"u_1","passwordHasher":"bcrypt","passwordDigest":"$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy","createdAt":"2019-04-01T10:00:00Z"}',
      '{"email":"grace@example.com","externalId":"u_2","passwordHasher":"scrypt_firebase","passwordDigest":"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==","passwordSalt":"42xEC+ixf3L2lw==","emailVerified":false}',
    ].join("\n"),
  },
  response: {
    status: 200,
    description:
      'NDJSON, one result a user line, streamed as batches are written (not in line order): `{"line":2,"id":"0b7c6a52-…"}` or `{"line":3,"error":{…problem, e.g. 409 identifier_exists…}}`.',
    contentType: "application/x-ndjson",
    schema: z
      .union([z.object({ line: z.int().min(1), id: z.uuid() }), z.object({ line: z.int().min(1), error: lineProblem })])
      .meta({ id: "ImportResultLine" }),
  },
  errors: ["unauthorized", "unsupported_media_type"],
});
