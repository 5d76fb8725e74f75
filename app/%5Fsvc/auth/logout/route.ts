import { clientPreflight, route } from "@/lib/http/route";
import { logoutEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/logout — revoke this session and clear its cookies
export const POST = route(logoutEndpoint);

export const OPTIONS = clientPreflight;
