import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeySecondFactorOptionsEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/auth/mfa/passkey/options — options for answering a second-factor challenge with a passkey
export const POST = route(passkeySecondFactorOptionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
