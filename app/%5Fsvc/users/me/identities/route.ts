import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { listMyIdentitiesEndpoint } from "@/lib/identities/endpoints";

// GET /_svc/users/me/identities — the user's connected provider accounts
export const GET = route(listMyIdentitiesEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
