import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { countUsersEndpoint } from "@/lib/users/server-endpoints";

// GET /api/server/v1/users/count — how many users the environment has
export const GET = route(countUsersEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
