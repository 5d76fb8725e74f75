import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { rotateSigningKeyEndpoint } from "@/lib/tokens/server-endpoints";

// POST /api/server/v1/signing-keys/rotate — make a new signing key current
export const POST = route(rotateSigningKeyEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
