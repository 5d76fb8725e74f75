import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { deleteUserEndpoint, getUserEndpoint, updateUserEndpoint } from "@/lib/users/server-endpoints";

// GET /api/server/v1/users/{userId} — get a user
export const GET = route(getUserEndpoint);

// PATCH /api/server/v1/users/{userId} — update names, locale, email, password
export const PATCH = route(updateUserEndpoint);

// DELETE /api/server/v1/users/{userId} — soft-delete a user
export const DELETE = route(deleteUserEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
