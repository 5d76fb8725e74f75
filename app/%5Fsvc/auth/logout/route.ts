import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { logoutEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/logout — revoke this session and clear its cookies
export const POST = route(logoutEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
