import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { unbanUserEndpoint } from "@/lib/users/server-endpoints";

// POST /api/server/v1/users/{userId}/unban — lift a ban
export const POST = route(unbanUserEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
