import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listPasskeysEndpoint, registerPasskeyEndpoint } from "@/lib/passkeys/endpoints";

// GET /_svc/users/me/passkeys — the user's passkeys
export const GET = route(listPasskeysEndpoint);

// POST /_svc/users/me/passkeys — add a passkey from a registration response (recent sign-in required)
export const POST = route(registerPasskeyEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
