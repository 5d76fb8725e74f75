import { sessionEstablishedSchema } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import { establishWebSessionQuery, redeemNativeTicketBody, satelliteSyncQuery, startSatelliteSyncQuery } from "./schemas";

const tags = ["Client: session"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;

export const redeemNativeTicketOperation = defineOperation({
  operationId: "redeemNativeTicket",
  method: "post",
  path: "/_svc/auth/session/establish",
  summary: "Redeem a native app's one-time ticket",
  description:
    "Ends a native OAuth flow: the app's redirect received `?ticket=`; this exchanges it, with the PKCE `codeVerifier` whose S256 challenge the app sent to authorize (RFC 7636), for a session. Answers like login with `_is_native=true`: `sessionToken` (send it as `Authorization: Bearer`) and `accessToken`; or, for a user with two-step verification, `needs_second_factor` with an mfaToken and no session (finish with `POST /_svc/auth/mfa/verify?_is_native=true`), or `needs_mfa_enrollment` where the environment requires MFA. A ticket lives 60 seconds and is redeemed at most once, also under concurrent requests. Only tickets issued with a challenge are accepted here (the `plain` method does not exist: the verifier must hash to the challenge). Unknown, expired and used tickets, a wrong verifier and a ticket of the web kind answer alike, 400 invalid_code, and a wrong verifier spends the ticket. A banned user gets 403 user_banned. Attempts count against `rateLimits.signIn` per IP.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  body: redeemNativeTicketBody,
  response: { status: 200, description: "The new session (with `sessionToken`), or the second factor still owed.", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "user_banned", "rate_limited"],
});

export const establishWebSessionOperation = defineOperation({
  operationId: "establishWebSession",
  method: "get",
  path: "/_svc/auth/session/establish",
  summary: "Open a browser session from a satellite's one-time ticket",
  description:
    "The last step of satellite sync, on the satellite host (see GET /_svc/auth/sync/start): the browser comes back from the primary's GET /_svc/auth/sync with `?ticket=`. The ticket opens a session only in the browser that started the sync: it carries the SHA-256 of the nonce that /sync/start left in this host's `__Host-gh_sync` cookie (`gh_sync` on plain http), compared in constant time; the cookie is cleared either way. Sets the session cookie on the host this is called on and answers 303 to `redirect_url` when the environment allows it (its allowed origins, frontend hosts, or a path on this host), else to the environment's home URL. The satellite session continues the primary session's sign-in (its methods; no second factor asked again), never outlives the primary (it ends when the primary is revoked, expires or goes idle, whatever is used on the satellite) and counts as verified when the primary last was. Without `ticket` (the primary had no session) the browser goes on to `redirect_url` with nothing set. A failed redemption also answers 303, to the same target with `?error=invalid_code` (unknown, expired or used ticket; a ticket minted for another browser, or the nonce cookie missing; a native ticket, which needs its verifier; a primary session that has ended), and spends the ticket; or `?error=user_banned`. The ticket lives 60 seconds and is redeemed at most once, also under concurrent requests. Attempts count against `rateLimits.signIn` per IP.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  query: establishWebSessionQuery,
  response: { status: 303, description: "To the redirect target (session cookie set), or back with `error`." },
  errors: [...CLIENT, "invalid_request", "rate_limited"],
});

export const startSatelliteSyncOperation = defineOperation({
  operationId: "startSatelliteSync",
  method: "get",
  path: "/_svc/auth/sync/start",
  summary: "Start handing the primary's session to this satellite host",
  description:
    "For an app on another frontend host of the environment (a satellite domain): navigate the browser here, on the satellite's own host, to get the session the user has on the primary host (the environment's first frontend host). Leaves a random nonce in a 5-minute HttpOnly, SameSite=Lax cookie on this host (`__Host-gh_sync` over https, `gh_sync` on plain http; path /) and answers 303 to the primary's GET /_svc/auth/sync with `binding` = BASE64URL(SHA-256(nonce)) and, as its `redirect_url`, this host's GET /_svc/auth/session/establish carrying the app's `redirect_url`. The browser comes back there with a ticket that opens a session only where the nonce cookie is, so a ticket minted for another browser (login CSRF) opens nothing. `redirect_url`: a path on this host, or an https URL (http only on a loopback host, outside production) on one of the environment's frontend hosts or allowed origins; anything else is 400 invalid_request naming it. Called on the primary host itself, or on a host that is not one of the environment's frontend hosts: 400 invalid_request.",
  tags,
  auth: "publishableKey",
  query: startSatelliteSyncQuery,
  response: { status: 303, description: "To the primary host's GET /_svc/auth/sync, with the nonce cookie set here." },
  errors: [...CLIENT, "invalid_request"],
});

export const satelliteSyncOperation = defineOperation({
  operationId: "syncSatelliteSession",
  method: "get",
  path: "/_svc/auth/sync",
  summary: "Hand the session to a satellite domain",
  description:
    "The middle step of satellite sync, on the primary host where the session cookie lives: a satellite's GET /_svc/auth/sync/start sends the browser here. With a live session, a one-time ticket (60 s, single use) is issued for the same user, carrying the session's sign-in methods, naming the session (or, from a satellite, its primary) as its primary and bound to `binding`, and the browser goes back with 303 to `{redirect_url}?ticket=`, the satellite's GET /_svc/auth/session/establish, which opens the session only in the browser holding the nonce behind `binding`. Without a session the browser goes back with no `ticket` parameter at all (the satellite then shows its signed-out state or sends the user to sign in). A PENDING session (a gate still open: legal consent, email verification, MFA enrollment) hands nothing over and no ticket is issued: a browser navigating here (`Accept: text/html`) is sent (303) to the hosted page of its current gate on the primary (`/consent`, `/verify-email`, `/mfa-enrollment`), anything else gets 403 session_pending with `properties.currentGate`; once the gate is cleared, the next sync hands the session over. The ticket is a whole sign-in, so `redirect_url` must be exactly GET /_svc/auth/session/establish on another of the environment's frontend hosts (https; http only on a loopback host, outside production), with no parameter but its own `redirect_url` (the app's page: https on a frontend host or allowed origin, never a custom scheme; use the native OAuth flow with PKCE for apps), as /sync/start builds it. There only the browser holding the nonce can use the ticket, and any other spends it. Anything else (an app page, an allowed origin, this very host), or a missing or malformed `binding`, is 400 invalid_request and nothing is followed or issued. Signing out on the primary (and any revocation of it: another device, the Server API, a ban, a password change, \"sign out other sessions\" from the primary) ends the satellite sessions too.",
  tags,
  // Signed out is an answer (no ticket); a PENDING session must not pass its sign-in on past its gate.
  auth: "optionalSession",
  pendingNavigatesToGate: true,
  query: satelliteSyncQuery,
  response: { status: 303, description: "Back to `redirect_url`, with `ticket` when a session exists; a PENDING session's browser to its gate's hosted page." },
  errors: [...CLIENT, "invalid_request", "session_pending"],
});
