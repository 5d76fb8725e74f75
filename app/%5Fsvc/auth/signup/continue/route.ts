import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { continueSignUpEndpoint, getContinuationEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/signup/continue?token= — what a deferred OAuth sign-up still needs
export const GET = route(getContinuationEndpoint);

// POST /_svc/auth/signup/continue — finalise it: user, identity, legal acceptance and session at once
export const POST = route(continueSignUpEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
