import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { changePasswordEndpoint, getPasswordStatusEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/password — whether a password is set
export const GET = route(getPasswordStatusEndpoint);

// POST /_svc/users/me/password — change or set the password
export const POST = route(changePasswordEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
