import { clientPreflight, route } from "@/lib/http/route";
import { listMySessionsEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/sessions — the user's active sessions
export const GET = route(listMySessionsEndpoint);

export const OPTIONS = clientPreflight;
