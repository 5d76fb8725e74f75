import { sessionEstablishedSchema } from "../auth/schemas";
import { defineOperation } from "../http/operation";
import { establishWebSessionQuery, redeemNativeTicketBody, satelliteSyncQuery } from "./schemas";

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
  summary: "Open a browser session from a one-time ticket",
  description:
    "A browser navigates here with a ticket handed to this host (a satellite domain's `?ticket=` from GET /_svc/auth/sync). Sets the session cookie on the host this is called on and answers 303 to `redirect_url` when the environment allows it (its allowed origins, frontend hosts, or a path on this host), else to the environment's home URL. A satellite ticket continues the primary session's sign-in and never asks for a second factor again; for other tickets, a user who owes a second factor gets no session: the browser goes to the hosted `/second-factor` page (the challenge in an HttpOnly cookie, never the URL), and to `/mfa-enrollment` where the environment requires MFA and the user has none; an open gate (consent, email verification) sends it to that gate's page. A satellite session ends when the primary session it was handed from ends, never outlives it, and counts as verified when the primary last was. A failed redemption also answers 303, to the same target with `?error=invalid_code` (unknown, expired, used ticket, a native ticket, which needs its verifier, or a primary session that has ended) or `?error=user_banned`. The ticket lives 60 seconds and is redeemed at most once, also under concurrent requests.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  query: establishWebSessionQuery,
  response: { status: 303, description: "To the redirect target (session cookie set), the second-factor page, or back with `error`." },
  errors: [...CLIENT, "invalid_request", "rate_limited"],
});

export const satelliteSyncOperation = defineOperation({
  operationId: "syncSatelliteSession",
  method: "get",
  path: "/_svc/auth/sync",
  summary: "Hand the session to a satellite domain",
  description:
    "For an app on another domain of the same environment: the satellite sends the browser here, on the primary host where the session cookie lives. With a live session, a one-time ticket (60 s, single use) is issued for the same user, carrying the session's sign-in methods and naming the session (or, from a satellite, its primary) as its primary, and the browser goes back with 303 to `{redirect_url}?ticket=`, which the satellite redeems on its own host with GET /_svc/auth/session/establish. Without a session the browser goes back with no `ticket` parameter at all (the satellite then shows its signed-out state or sends the user to sign in). `redirect_url` must be an absolute URL on one of the environment's allowed origins or frontend hosts: anything else is 400 invalid_request and nothing is followed or issued. Signing out on the primary (and any revocation of it: another device, the Server API, a ban, a password change) ends the satellite sessions too.",
  tags,
  auth: "publishableKey",
  query: satelliteSyncQuery,
  response: { status: 303, description: "Back to `redirect_url`, with `ticket` when a session exists." },
  errors: [...CLIENT, "invalid_request"],
});
