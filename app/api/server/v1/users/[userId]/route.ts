import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { deleteUser } from "@/lib/users/delete-user";
import { getServerUserOrThrow } from "@/lib/users/get-user";
import { deleteUserOperation, getUserOperation, updateUserOperation } from "@/lib/users/operations";
import { updateUser } from "@/lib/users/update-user";

// GET /api/server/v1/users/{userId} — get a user
export const GET = serverRoute(getUserOperation, ({ environment, params }) => getServerUserOrThrow(getDb(), environment.id, params.userId));

// PATCH /api/server/v1/users/{userId} — update names, locale, email, password
export const PATCH = serverRoute(updateUserOperation, ({ environment, params, body, actor }) =>
  updateUser(getDb(), environment, params.userId, body, actor),
);

// DELETE /api/server/v1/users/{userId} — soft-delete a user
export const DELETE = serverRoute(deleteUserOperation, ({ environment, params, actor }) =>
  deleteUser(getDb(), environment.id, params.userId, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
