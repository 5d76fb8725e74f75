import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { linkCompleteEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/link/complete — connect the provider account to the session's user, 303
export const GET = navigationRoute(linkCompleteEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
