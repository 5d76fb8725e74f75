import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { importUsersEndpoint } from "@/lib/users/server-endpoints";

// POST /api/server/v1/users/import — bulk import from NDJSON
export const POST = route(importUsersEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
