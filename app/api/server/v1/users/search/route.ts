import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { searchUsersEndpoint } from "@/lib/users/server-endpoints";

// POST /api/server/v1/users/search — filter and page through users
export const POST = route(searchUsersEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
