import { clientPreflight, route } from "@/lib/http/route";
import { loginEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/login — sign in with email and password
export const POST = route(loginEndpoint);

export const OPTIONS = clientPreflight;
