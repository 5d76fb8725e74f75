import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { unlinkMyIdentityEndpoint } from "@/lib/identities/endpoints";

// DELETE /_svc/users/me/identities/{identityId} — disconnect a provider account (recent sign-in required)
export const DELETE = route(unlinkMyIdentityEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
