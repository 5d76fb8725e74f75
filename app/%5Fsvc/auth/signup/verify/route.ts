import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { verifySignUpEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/signup/verify — verify the code: creates the user and the session
export const POST = route(verifySignUpEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
