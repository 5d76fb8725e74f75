import { clientPreflight, route } from "@/lib/http/route";
import { revokeOtherSessionsEndpoint } from "@/lib/users/me-endpoints";

// POST /_svc/users/me/sessions/revoke-others — sign out everywhere else
export const POST = route(revokeOtherSessionsEndpoint);

export const OPTIONS = clientPreflight;
