import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { establishWebSessionEndpoint, redeemNativeTicketEndpoint } from "@/lib/tickets/endpoints";

// GET /_svc/auth/session/establish — open a browser session from a one-time ticket, then redirect
export const GET = route(establishWebSessionEndpoint);

// POST /_svc/auth/session/establish — redeem a native app's ticket with its PKCE verifier
export const POST = route(redeemNativeTicketEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
