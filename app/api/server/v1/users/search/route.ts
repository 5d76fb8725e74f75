import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { searchUsersOperation } from "@/lib/users/operations";
import { searchUsers } from "@/lib/users/search-users";

// POST /api/server/v1/users/search — filter and page through users
export const POST = serverRoute(searchUsersOperation, ({ environment, body, query }) =>
  searchUsers(getDb(), environment.id, body, query),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
