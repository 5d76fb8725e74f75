import { clientPreflight, route } from "@/lib/http/route";
import { reverifyEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/reverify — prove a factor again for sensitive operations
export const POST = route(reverifyEndpoint);

export const OPTIONS = clientPreflight;
