import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { disableMfaEndpoint, getMfaStatusEndpoint } from "@/lib/mfa/endpoints";

// GET /_svc/users/me/mfa — the user's second factors
export const GET = route(getMfaStatusEndpoint);

// DELETE /_svc/users/me/mfa — turn two-step verification off (body: {code})
export const DELETE = route(disableMfaEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH } = unsupportedMethods({ GET, DELETE, OPTIONS });
