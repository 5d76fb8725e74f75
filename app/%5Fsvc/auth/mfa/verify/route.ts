import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { verifyMfaEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/auth/mfa/verify — finish signing in with a second factor
export const POST = route(verifyMfaEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
