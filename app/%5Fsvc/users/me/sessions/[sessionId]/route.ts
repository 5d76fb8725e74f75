import { clientPreflight, route } from "@/lib/http/route";
import { revokeMySessionEndpoint } from "@/lib/users/me-endpoints";

// DELETE /_svc/users/me/sessions/{sessionId} — sign out another device
export const DELETE = route(revokeMySessionEndpoint);

export const OPTIONS = clientPreflight;
