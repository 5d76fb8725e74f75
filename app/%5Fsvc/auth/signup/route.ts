import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { signUpEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/signup — begin sign-up: email a 6-digit code
export const POST = route(signUpEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
