import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { navigationRoute } from "@/lib/http/navigation-route";
import { linkEndpoint, linkPostEndpoint } from "@/lib/oauth/flow-endpoints";

// POST /_svc/auth/oauth2/{provider}/link — begin connecting a provider account (recent sign-in; a form post, Origin checked): 303 to the provider
export const POST = navigationRoute(linkPostEndpoint);

// GET /_svc/auth/oauth2/{provider}/link — the same for bearer sessions (native clients) and same-origin pages only
export const GET = navigationRoute(linkEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
