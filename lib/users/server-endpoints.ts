import { resetUserFactors } from "../mfa/reset-factors";
import { endpoint } from "../operation/endpoint";
import { banUser, unbanUser } from "./ban-user";
import { createUser } from "./create-user";
import { deleteUser } from "./delete-user";
import { getServerUserOrThrow } from "./get-user";
import { StreamedBody } from "../operation/streamed-body";
import { importResultBatches, importUsers } from "./import-users";
import { banUserOperation, countUsersOperation, createUserOperation, importUsersOperation, deleteUserOperation, getUserOperation, resetUserMfaOperation, searchUsersOperation, unbanUserOperation, updateUserMetadataOperation, updateUserOperation } from "./operations";
import { countUsers } from "./count-users";
import { searchUsers } from "./search-users";
import { updateUserMetadata } from "./update-metadata";
import { updateUser } from "./update-user";
import { getDb } from "@/db/client";

/**
 * The Server API's users operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// POST /api/server/v1/users/search — filter and page through users
export const searchUsersEndpoint = endpoint(searchUsersOperation, ({ environment, body, query }) =>
  searchUsers(getDb(), environment.id, body, query));

// GET /api/server/v1/users/count — how many users (not deleted) the environment has
export const countUsersEndpoint = endpoint(countUsersOperation, async ({ environment }) => ({ count: await countUsers(getDb(), environment.id) }));

// DELETE /api/server/v1/users/{userId}/mfa — remove every second factor and revoke every session
export const resetUserMfaEndpoint = endpoint(resetUserMfaOperation, ({ environment, params, actor }) =>
  resetUserFactors(getDb(), environment, params.userId, actor));

// POST /api/server/v1/users/{userId}/unban — lift a ban
export const unbanUserEndpoint = endpoint(unbanUserOperation, ({ environment, params, actor }) =>
  unbanUser(getDb(), environment.id, params.userId, actor));

// GET /api/server/v1/users/{userId} — get a user
export const getUserEndpoint = endpoint(getUserOperation, ({ environment, params }) => getServerUserOrThrow(getDb(), environment.id, params.userId));

// PATCH /api/server/v1/users/{userId} — update names, locale, email, password
export const updateUserEndpoint = endpoint(updateUserOperation, ({ environment, params, body, actor }) =>
  updateUser(getDb(), environment, params.userId, body, actor));

// DELETE /api/server/v1/users/{userId} — soft-delete a user
export const deleteUserEndpoint = endpoint(deleteUserOperation, ({ environment, params, actor }) =>
  deleteUser(getDb(), environment.id, params.userId, actor));

// POST /api/server/v1/users/{userId}/ban — ban and revoke every session
export const banUserEndpoint = endpoint(banUserOperation, ({ environment, params, actor }) =>
  banUser(getDb(), environment.id, params.userId, actor));

// PATCH /api/server/v1/users/{userId}/metadata — deep-merge metadata bags
export const updateUserMetadataEndpoint = endpoint(updateUserMetadataOperation, ({ environment, params, body, actor }) =>
  updateUserMetadata(getDb(), environment.id, params.userId, body, actor));

// POST /api/server/v1/users — create a user
export const createUserEndpoint = endpoint(createUserOperation, ({ environment, body, actor }) =>
  createUser(getDb(), environment, body, actor));

// POST /api/server/v1/users/import — bulk import from NDJSON, one result a line, streamed
export const importUsersEndpoint = endpoint(importUsersOperation, async ({ environment, stream, actor, context }) => {
  if (!stream) throw new Error("importUsers declares streamBody: the route kit passes the body");
  return StreamedBody.ndjson(importResultBatches(importUsers(getDb(), environment, stream, actor), context.requestId));
});
