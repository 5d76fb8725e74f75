import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { resendSignUpEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/signup/resend — email a new sign-up code
export const POST = route(resendSignUpEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
