import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { authorizeEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/{provider}/authorize — begin OAuth sign-in: 303 to the provider
export const GET = navigationRoute(authorizeEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
