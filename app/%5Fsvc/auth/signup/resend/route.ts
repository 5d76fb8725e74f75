import { clientPreflight, route } from "@/lib/http/route";
import { resendSignUpEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/signup/resend — email a new sign-up code
export const POST = route(resendSignUpEndpoint);

export const OPTIONS = clientPreflight;
