import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { reverifyEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/{provider}/reverify — confirm it's you with a connected provider account: 303 to the provider
export const GET = navigationRoute(reverifyEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
