import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeySignInEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/auth/passkey/verify — sign in with a passkey
export const POST = route(passkeySignInEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
