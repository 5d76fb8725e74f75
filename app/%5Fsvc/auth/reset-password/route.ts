import { clientPreflight, route } from "@/lib/http/route";
import { resetPasswordEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/reset-password — new password with the emailed code; signs in afresh
export const POST = route(resetPasswordEndpoint);

export const OPTIONS = clientPreflight;
