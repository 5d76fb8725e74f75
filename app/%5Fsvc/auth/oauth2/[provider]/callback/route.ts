import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { callbackEndpoint, callbackPostEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/{provider}/callback — the provider's redirect back: sign in (or hand a link on), 303
export const GET = route(callbackEndpoint);

// POST /_svc/auth/oauth2/{provider}/callback — a form_post answer (Apple): 303 to the GET callback
export const POST = route(callbackPostEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
