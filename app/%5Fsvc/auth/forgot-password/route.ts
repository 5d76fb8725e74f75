import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { forgotPasswordEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/forgot-password — email a reset code (always 200)
export const POST = route(forgotPasswordEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
