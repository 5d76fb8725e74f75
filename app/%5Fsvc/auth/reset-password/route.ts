import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { resetPasswordEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/reset-password — new password with the emailed code; signs in afresh
export const POST = route(resetPasswordEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
