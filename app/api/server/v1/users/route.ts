import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createUserEndpoint } from "@/lib/users/server-endpoints";

// POST /api/server/v1/users — create a user
export const POST = route(createUserEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
