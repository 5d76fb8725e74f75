import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { reverifyCompleteEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/reverify/complete — reverify the session if the provider account is the user's own, 303
export const GET = navigationRoute(reverifyCompleteEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
