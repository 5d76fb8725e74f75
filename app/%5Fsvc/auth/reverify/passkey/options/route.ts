import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeyReverifyOptionsEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/auth/reverify/passkey/options — options for proving a passkey again
export const POST = route(passkeyReverifyOptionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
