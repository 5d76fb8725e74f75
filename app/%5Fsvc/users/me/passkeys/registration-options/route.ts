import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { passkeyRegistrationOptionsEndpoint } from "@/lib/passkeys/endpoints";

// POST /_svc/users/me/passkeys/registration-options — options for navigator.credentials.create() (recent sign-in required)
export const POST = route(passkeyRegistrationOptionsEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
