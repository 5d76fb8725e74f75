import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeyReverifyEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/auth/reverify/passkey — prove a passkey again for sensitive operations
export const POST = route(passkeyReverifyEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
