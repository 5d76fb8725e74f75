import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { linkEndpoint } from "@/lib/oauth/flow-endpoints";

// GET /_svc/auth/oauth2/{provider}/link — begin connecting a provider account (recent sign-in): 303 to the provider
export const GET = navigationRoute(linkEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
