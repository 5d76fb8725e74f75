import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeySignInOptionsEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/auth/passkey/options — options for a passkey sign-in with no email typed
export const POST = route(passkeySignInOptionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
