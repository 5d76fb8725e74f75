import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { callbackEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/{provider}/callback — the provider's redirect back: sign in (or hand a link on), 303
export const GET = route(callbackEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
