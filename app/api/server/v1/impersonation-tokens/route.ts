import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createImpersonationTokenEndpoint } from "@/lib/impersonation/server-endpoints";

// POST /api/server/v1/impersonation-tokens — mint a one-time token to act as a user
export const POST = route(createImpersonationTokenEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
