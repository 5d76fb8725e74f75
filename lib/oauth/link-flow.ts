import type { Database } from "@/db/client";
import type { RequestActor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { safeRedirect } from "../flows/safe-redirect";
import { findIdentity } from "../identities/find-identity";
import { linkIdentity } from "../identities/link-identity";
import { hasAnyFactor, readUserFactors } from "../mfa/user-factors";
import { sessionActor } from "../sessions/impersonator";
import { markReverified } from "../sessions/reverification";
import type { ActiveSession } from "../sessions/resolve-session";
import { acceptedRedirect, beginFlow, loadProviderOrThrow, type Authorization } from "./begin-authorization";
import { failureCode, failureLocation, profileForFlow, type CallbackQuery } from "./complete-callback";
import { consumeFlow, presentedBrowserToken, type ConsumedFlow, type SessionFlowIntent } from "./flows";
import type { ProviderProfile } from "./profile";
import { holdProvider } from "./hold-provider";

/**
 * The floor for a flow a session starts (link, reverify): a navigation that another
 * site started (`Sec-Fetch-Site: cross-site`) is refused with 403 forbidden, so a
 * hostile page cannot send a signed-in browser off to connect a provider account or
 * sign in at it. This is all reverify asks: it only opens the reverification window
 * when the provider account that signs in is already connected to the session's
 * user, so a login CSRF at the provider gets nothing. Linking connects whichever
 * account signs in, and asks more of its start on top (assertLinkStartAllowed).
 */
function assertNotCrossSite(context: RequestContext): void {
  if (context.fetchSite === "cross-site") {
    throw new AppError("forbidden", "Start this from a page of the application's own site, not from another site.");
  }
}

async function beginSessionFlow(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  intent: SessionFlowIntent,
  input: { providerId: string; redirectUrl: string | null },
  context: RequestContext,
): Promise<Authorization> {
  assertNotCrossSite(context);
  const redirectUrl = acceptedRedirect(input.redirectUrl, environment, context);
  const provider = await loadProviderOrThrow(db, environment, input.providerId);
  return beginFlow(
    db,
    environment,
    provider,
    { intent, userId: current.user.id, sessionId: current.session.id, redirectUrl, native: false, codeChallenge: null },
    context,
  );
}

/**
 * Consumes the session flow this browser started with `intent`, checks it belongs
 * to the session presenting it (still live: the route resolved it), exchanges the
 * code and hands the provider's profile to `act`. Ends at the flow's redirect_url
 * (default: the hosted account page), with `error=` on any failure.
 */
async function completeSessionFlow(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  intent: SessionFlowIntent,
  query: CallbackQuery,
  context: RequestContext,
  act: (flow: ConsumedFlow, profile: ProviderProfile, actor: RequestActor) => Promise<unknown>,
): Promise<string> {
  const here = linkBase(environment, context.host);
  const flow = await consumeFlow(db, environment.id, { state: query.state, browserToken: presentedBrowserToken(here, context), intent });
  if (!flow) return failureLocation(null, null, here, "oauth_state_invalid");
  try {
    if (flow.sessionId !== current.session.id || flow.userId !== current.user.id) {
      throw new AppError("forbidden", "This flow was started by another session.");
    }
    const profile = await profileForFlow(db, environment, flow, query, context.requestId);
    await act(flow, profile, sessionActor(current, context.requestId));
  } catch (error) {
    return failureLocation(environment, flow, flow.base, failureCode(error, context.requestId));
  }
  // The default, the account page, names the environment with pk where the host does not.
  return flow.redirectUrl ? safeRedirect(flow.redirectUrl, environment, flow.base).url : environmentUrl(flow.base, "/account");
}

/** How a link flow was asked for: the HTTP method of the request that starts it. */
export type LinkStart = "POST" | "GET";

/**
 * Connecting an account starts with a POST, which the route kit let through only
 * from an Origin the environment allows (CONTRACT §2): the hosted account page
 * posts a form. That check passes a request with no Origin at all (code that is no
 * browser sends none), so with the session cookie, an ambient credential, the POST
 * must carry an Origin (which was then checked) or `Sec-Fetch-Site: same-origin`:
 * browsers send Origin on every POST, and a request without it that still carries
 * the cookie came from something we cannot vouch for. A GET carries no Origin to
 * check, so a page of a sibling subdomain (same-site: the SameSite=Lax cookie goes
 * along) or any page in a browser that sends no Sec-Fetch-Site could send a recently
 * signed-in browser there and, with a login CSRF at the provider, have the
 * attacker's provider account connected to the victim: a cookie GET needs
 * `Sec-Fetch-Site: same-origin` (a page of this very origin). A session presented
 * as a bearer token (a native client) is no ambient credential: no other page can
 * make a browser send it, and either method passes.
 */
function assertLinkStartAllowed(current: ActiveSession, start: LinkStart, context: RequestContext): void {
  if (current.presentedAs !== "cookie" || context.fetchSite === "same-origin") return;
  if (start === "POST" && context.origin !== null) return;
  throw new AppError(
    "forbidden",
    start === "POST"
      ? "A browser connects an account with a form post from a page of the application (it sends an Origin header); this request carried the session cookie and no Origin."
      : "Connect an account with POST /_svc/auth/oauth2/{provider}/link (a form on your page); a browser's GET passes only from a page of this origin.",
  );
}

/**
 * POST (or, see assertLinkStartAllowed, GET) /_svc/auth/oauth2/{provider}/link: a
 * signed-in user (recent sign-in: the operation is sensitive) connects a provider
 * account. The flow remembers the user and the very session that asked; it ends at
 * link/complete.
 */
export function beginLink(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  input: { providerId: string; redirectUrl: string | null; start: LinkStart },
  context: RequestContext,
): Promise<Authorization> {
  assertLinkStartAllowed(current, input.start, context);
  return beginSessionFlow(db, environment, current, "link", input, context);
}

/**
 * GET /_svc/auth/oauth2/link/complete: the callback hands a link flow on to here.
 * The provider account is connected with linkIdentity: 409 identity_already_linked
 * when it signs in as someone else.
 */
export function completeLink(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  query: CallbackQuery,
  context: RequestContext,
): Promise<string> {
  return completeSessionFlow(db, environment, current, "link", query, context, (flow, profile, actor) =>
    db.transaction(async (tx) => {
      await holdProvider(tx, environment.id, flow.providerId);
      return linkIdentity(tx, environment, current.user, { providerId: flow.providerId, profile }, actor);
    }),
  );
}

/**
 * OAuth proves a first factor only: a user with two-step verification confirms it
 * is them with the authenticator code or a passkey, as at sign-in, never with a
 * provider account alone (403 forbidden).
 */
async function assertOAuthMayReverify(db: Database, userId: string): Promise<void> {
  if (hasAnyFactor(await readUserFactors(db, userId))) {
    throw new AppError("forbidden", "With two-step verification on, confirm it is you with your authenticator app or a passkey.");
  }
}

/**
 * GET /_svc/auth/oauth2/{provider}/reverify: "confirm it's you" for a user who signs
 * in with a provider account (and may have no password): a fresh sign-in at the
 * provider opens the session's reverification window, like the password does at
 * POST /auth/reverify. The provider is asked for a fresh sign-in (prompt=login,
 * max_age=0) and its id_token must say so (auth_time no older than the flow):
 * an unlocked browser still signed in at the provider is not proof. OpenID Connect
 * providers only. Bound to this session; ends at reverify/complete.
 */
export async function beginReverify(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  input: { providerId: string; redirectUrl: string | null },
  context: RequestContext,
): Promise<Authorization> {
  await assertOAuthMayReverify(db, current.user.id);
  const provider = await loadProviderOrThrow(db, environment, input.providerId);
  // Only OpenID Connect reports when the user last signed in (auth_time): an OAuth-only
  // provider could pass on a remembered session without asking anyone.
  if (provider.preset.protocol !== "oidc") {
    throw new AppError("forbidden", `${provider.name} cannot confirm a fresh sign-in; confirm it is you another way.`);
  }
  return beginSessionFlow(db, environment, current, "reverify", input, context);
}

/**
 * GET /_svc/auth/oauth2/reverify/complete: the provider account that just signed in
 * must be one connected to the session's user (else `error=forbidden`, and nothing
 * opens); then the session is reverified with amr `oauth`.
 */
export function completeReverify(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  query: CallbackQuery,
  context: RequestContext,
): Promise<string> {
  return completeSessionFlow(db, environment, current, "reverify", query, context, async (flow, profile, actor) => {
    await assertOAuthMayReverify(db, current.user.id);
    const identity = await findIdentity(db, environment.id, flow.providerId, profile.subject);
    if (identity?.userId !== current.user.id) throw new AppError("forbidden", "This provider account is not connected to you.");
    await markReverified(db, environment, current, "oauth", actor);
  });
}
