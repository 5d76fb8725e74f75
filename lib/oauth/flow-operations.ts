import { nativeQuery, sessionEstablishedSchema } from "../auth/schemas";
import { defineOperation, type Operation } from "../operation/operation";
import { authorizeQuery, callbackForm, callbackQuery, continuationQuery, continuationView, continueBody, linkQuery, providerParams } from "./flow-schemas";

const tags = ["Client: OAuth sign-in"];
const CLIENT = ["environment_not_found", "origin_not_allowed"] as const;
const REDIRECT = { status: 303, description: "See Other: `Location` says where the browser goes next." } as const;

export const authorizeOperation = defineOperation({
  operationId: "oauthAuthorize",
  method: "get",
  path: "/_svc/auth/oauth2/{provider}/authorize",
  summary: "Begin OAuth sign-in",
  description:
    "303 to the provider's authorization endpoint with a `state` (random, single use, 10 minutes, bound to this provider and to this browser by the HttpOnly, SameSite=Lax cookie `__Host-gh_oauth` (Secure, path /) on https, `gh_oauth` (path /_svc/auth/oauth2) on plain-http loopback development), a nonce and PKCE S256. A browser that presents the cookie while one of its flows is still live keeps it, so flows started in two tabs both complete; a value with no live flow behind it is never adopted: a new one is set. `redirect_url` must be a path or a URL on the environment's origins (allowed origins for apps on other domains and custom schemes): anything else answers 400, never a redirect. Native apps add `_is_native=true&code_challenge=<S256>&code_challenge_method=S256` and a `redirect_url` with the app's custom scheme on the allowed origins (`myapp://callback`); `plain`, a missing challenge or an http(s) `redirect_url` answer 400. Reached by a browser through PUBLIC_URL, pass `pk=<publishableKey>`.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  params: providerParams,
  query: authorizeQuery,
  response: REDIRECT,
  errors: [...CLIENT, "invalid_request", "resource_not_found", "oauth_failed", "rate_limited"],
});

export const callbackOperation = defineOperation({
  operationId: "oauthCallback",
  method: "get",
  path: "/_svc/auth/oauth2/{provider}/callback",
  summary: "OAuth callback (sign-in and linking)",
  description:
    "Where the provider sends the browser back; register `{frontend origin}/_svc/auth/oauth2/{provider}/callback` with the provider. Always a 303: a web sign-in sets the session cookie and goes to the flow's `redirect_url` (default: the environment's home or the hosted account page); a user with two-step verification goes to the hosted `/second-factor` page (no session yet); a native flow goes to `{redirect_url}?ticket=` (redeem with POST /_svc/auth/session/establish and the code verifier); a new user while legal consent is required goes to the hosted `/sign-up/continue?token=` page with the continuation bound to this browser by the HttpOnly, SameSite=Lax cookie `__Host-gh_oauth_signup` (`gh_oauth_signup` on plain http; path /, 10 minutes) (native: `{redirect_url}?continuation_token=`, bound to the app's code challenge); a link flow goes on to /_svc/auth/oauth2/link/complete. A failure goes to `{redirect_url}?error=<code>` or the hosted `/oauth-error?error=<code>` page: `oauth_state_invalid` (state missing, unknown, used, expired, of another provider or another browser), `access_denied` (refused at the provider), `oauth_failed` (the provider's answer or id_token was refused), `account_exists` (the address belongs to an account and is not verified on both sides: sign in and connect the provider from the account page; the provider's address is normalized like ours (NFC, lower case, IDNA domain; not a plain mailbox: no address at all) and counts as verified only when the provider spelt it so up to ASCII case, so an address with U+212A KELVIN SIGN for its k is never linked to `ken@x.com`), `user_banned`, `forbidden` (sign-up closed), `identifier_exists` (two first sign-ins of one account at once). A `form_post` answer (Apple) is posted to the same path and sent on here. The answer carries `Server-Timing: oauth-exchange;dur=<ms>, app;dur=<ms>`: the round trips to the provider (code redemption, id_token check, UserInfo; absent when the flow stopped before them) and the callback's whole work including them, so an operator can tell a slow provider from a slow Gatehouse. Durations only.",
  tags,
  auth: "anyClient",
  rateLimits: [{ action: "signIn" }],
  params: providerParams,
  query: callbackQuery,
  response: REDIRECT,
  errors: ["invalid_request", "rate_limited"],
});

export const callbackPostOperation = defineOperation({
  operationId: "oauthCallbackFormPost",
  method: "post",
  path: "/_svc/auth/oauth2/{provider}/callback",
  summary: "OAuth callback posted as a form (response_mode=form_post)",
  description:
    "Providers that post their answer (Apple) land here, cross-site, where the browser sends no SameSite=Lax cookie: the answer is a 303 to the GET callback on the same host with `state`, `code`, `iss`, `error` and `error_description` in the query, a top-level navigation that carries the `gh_oauth` (`__Host-gh_oauth`) cookie, so the browser binding is checked there like for every provider. Changes nothing itself.",
  tags,
  auth: "none",
  params: providerParams,
  body: callbackForm,
  formBody: true,
  response: REDIRECT,
  errors: ["invalid_request", "payload_too_large", "unsupported_media_type"],
});

/** What the two ways of starting a link flow share: they differ in the method, and in who may use GET. */
const LINK_START = {
  path: "/_svc/auth/oauth2/{provider}/link",
  tags,
  auth: "sensitiveSession",
  rateLimits: [{ action: "signIn" }],
  params: providerParams,
  query: linkQuery,
  response: REDIRECT,
  errors: [...CLIENT, "unauthorized", "session_pending", "reverification_required", "forbidden", "invalid_request", "resource_not_found", "oauth_failed", "rate_limited"],
} satisfies Partial<Operation>;

export const linkPostOperation = defineOperation({
  ...LINK_START,
  operationId: "oauthLinkStart",
  method: "post",
  summary: "Begin connecting a provider account",
  description:
    "For a signed-in user with a recent sign-in: 303 to the provider, as authorize does; the flow is bound to this session and ends at /_svc/auth/oauth2/link/complete, then at `redirect_url` (default: the hosted account page). Start it with a plain form post from a page of your own site (`<form method=\"post\" action=\"/_svc/auth/oauth2/{provider}/link?redirect_url=…\">`, no body; through PUBLIC_URL add `pk=<publishableKey>`): a browser's post from an Origin the environment does not allow answers 403 origin_not_allowed, and one another site started (`Sec-Fetch-Site: cross-site`) 403 forbidden. With the session cookie the post must carry an `Origin` header (browsers always send one on a POST) or `Sec-Fetch-Site: same-origin`, else 403 forbidden; a session sent as `Authorization: Bearer <sessionToken>` needs neither.",
});

export const linkOperation = defineOperation({
  ...LINK_START,
  operationId: "oauthLink",
  method: "get",
  summary: "Begin connecting a provider account (native clients)",
  description:
    "As POST, for clients that present the session as `Authorization: Bearer <sessionToken>` (native apps). A browser's GET carries no Origin to check, so with the session cookie it passes only with `Sec-Fetch-Site: same-origin` (a page of this very origin); any other (same-site, `none`, no header) answers 403 forbidden: use POST.",
});

export const linkCompleteOperation = defineOperation({
  operationId: "oauthLinkComplete",
  method: "get",
  path: "/_svc/auth/oauth2/link/complete",
  summary: "Complete connecting a provider account",
  description:
    "Reached from the callback (proxy redirect) on the host where the session lives. The flow must have been started by this very session, still live. 303 to the flow's `redirect_url` (default: the hosted account page), with `error=<code>` on failure: `identity_already_linked` (the provider account signs in as another user), `oauth_state_invalid`, `access_denied`, `oauth_failed`, `forbidden` (another session started the flow).",
  tags,
  auth: "session",
  // Refused to an impersonation session: connected accounts are the user's own.
  impersonation: "refused",
  params: undefined,
  query: callbackQuery,
  response: REDIRECT,
  errors: [...CLIENT, "unauthorized", "session_pending", "invalid_request"],
});

export const oauthReverifyOperation = defineOperation({
  operationId: "oauthReverify",
  method: "get",
  path: "/_svc/auth/oauth2/{provider}/reverify",
  summary: "Confirm it is you with a connected provider account",
  description:
    "\"Confirm it's you\" for a user who signs in with a provider account (and may have no password): 303 to the provider, as authorize does; the flow is bound to this session and ends at /_svc/auth/oauth2/reverify/complete, which opens the session's reverification window (like POST /_svc/auth/reverify) when the account that signed in at the provider is one connected to this user. OAuth proves a first factor only: a user with two-step verification gets 403 forbidden and confirms with the authenticator code or a passkey instead. A navigation another site started (`Sec-Fetch-Site: cross-site`) answers 403 forbidden; same-origin, same-site, `none` and requests without the header pass, a GET being enough here (unlike link, which connects whichever account signs in at the provider and so starts with a POST): the window opens only for a provider account already connected to this user, so a login CSRF at the provider gains nothing.",
  tags,
  auth: "session",
  // Refused to an impersonation session: no one can prove the user's factors for them.
  impersonation: "refused",
  rateLimits: [{ action: "signIn" }],
  params: providerParams,
  query: linkQuery,
  response: REDIRECT,
  errors: [...CLIENT, "unauthorized", "session_pending", "forbidden", "invalid_request", "resource_not_found", "oauth_failed", "rate_limited"],
});

export const oauthReverifyCompleteOperation = defineOperation({
  operationId: "oauthReverifyComplete",
  method: "get",
  path: "/_svc/auth/oauth2/reverify/complete",
  summary: "Complete confirming it is you with a provider account",
  description:
    "Reached from the callback (proxy redirect) on the host where the session lives. The flow must have been started by this very session, still live. 303 to the flow's `redirect_url` (default: the hosted account page), with `error=<code>` on failure: `forbidden` (the provider account is not connected to this user, another session started the flow, or two-step verification is on), `oauth_state_invalid`, `access_denied`, `oauth_failed`.",
  tags,
  auth: "session",
  // Refused to an impersonation session: no one can prove the user's factors for them.
  impersonation: "refused",
  params: undefined,
  query: callbackQuery,
  response: REDIRECT,
  errors: [...CLIENT, "unauthorized", "session_pending", "invalid_request"],
});

export const getContinuationOperation = defineOperation({
  operationId: "getSignUpContinuation",
  method: "get",
  path: "/_svc/auth/signup/continue",
  summary: "Get continuation state",
  description:
    "What a deferred OAuth sign-up still needs (legal consent). Changes nothing; the token stays valid until it is used or 10 minutes pass. Readable with the token alone; finishing a web sign-up also takes the browser cookie (see POST).",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "codeAttempts" }],
  query: continuationQuery,
  response: { status: 200, description: "The pending sign-up.", schema: continuationView },
  errors: [...CLIENT, "invalid_request", "invalid_code", "rate_limited"],
});

export const continueSignUpOperation = defineOperation({
  operationId: "continueSignUp",
  method: "post",
  path: "/_svc/auth/signup/continue",
  summary: "Finalise OAuth sign-up",
  description:
    "Creates the user with its provider identity, records the legal acceptance and opens the session, atomically; sets the session cookie (`_is_native=true`: also `sessionToken`). `legalConsentAccepted` must be true when consent is required (422 legal_consent_required, the token stays valid). A web continuation is finished only by the browser that came back from the provider: it must send the HttpOnly cookie the callback set (`__Host-gh_oauth_signup` on https, `gh_oauth_signup` on plain http; path /, so the hosted consent page and this endpoint on that host get it); without it, or with another value, the answer is invalid_code and the token stays valid for its own browser. A continuation started by a native app requires `codeVerifier` (its S256 challenge) instead: a wrong one answers invalid_code and the token is spent. Used or expired tokens: invalid_code.",
  tags,
  auth: "publishableKey",
  rateLimits: [{ action: "codeAttempts" }],
  query: nativeQuery,
  body: continueBody,
  response: { status: 200, description: "The new session (or the second-factor enrollment the environment requires).", schema: sessionEstablishedSchema },
  errors: [...CLIENT, "invalid_request", "invalid_code", "legal_consent_required", "identifier_exists", "account_exists", "rate_limited"],
});
