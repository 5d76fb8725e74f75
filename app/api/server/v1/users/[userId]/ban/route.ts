import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { banUserEndpoint } from "@/lib/users/server-endpoints";

// POST /api/server/v1/users/{userId}/ban — ban and revoke every session
export const POST = route(banUserEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
