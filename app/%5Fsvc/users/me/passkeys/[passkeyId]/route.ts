import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { deletePasskeyEndpoint, renamePasskeyEndpoint } from "@/lib/passkeys/endpoints";

// PATCH /_svc/users/me/passkeys/{passkeyId} — rename a passkey
export const PATCH = route(renamePasskeyEndpoint);

// DELETE /_svc/users/me/passkeys/{passkeyId} — remove a passkey (recent sign-in required)
export const DELETE = route(deletePasskeyEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT } = unsupportedMethods({ PATCH, DELETE, OPTIONS });
