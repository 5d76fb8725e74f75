import type { Database } from "@/db/client";
import type { RequestActor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import type { RequestContext } from "../http/request-context";
import { safeRedirect } from "../http/safe-redirect";
import { linkIdentity } from "../identities/link-identity";
import type { ActiveSession } from "../sessions/resolve-session";
import { acceptedRedirect, beginFlow, loadProviderOrThrow, type Authorization } from "./begin-authorization";
import { failureCode, failureLocation, profileForFlow, type CallbackQuery } from "./complete-callback";
import { BROWSER_COOKIE, consumeFlow } from "./flows";

/**
 * GET /_svc/auth/oauth2/{provider}/link: a signed-in user (recent sign-in: the
 * operation is sensitive) connects a provider account. The flow remembers the user
 * and the very session that asked; it ends at link/complete.
 */
export async function beginLink(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  input: { providerId: string; redirectUrl: string | null },
  context: RequestContext,
): Promise<Authorization> {
  const redirectUrl = acceptedRedirect(input.redirectUrl, environment, context);
  const provider = await loadProviderOrThrow(db, environment, input.providerId);
  return beginFlow(
    db,
    environment,
    provider,
    { intent: "link", userId: current.user.id, sessionId: current.session.id, redirectUrl, native: false, codeChallenge: null },
    context,
  );
}

/**
 * GET /_svc/auth/oauth2/link/complete: the callback hands a link flow on to here,
 * on the flow's host where the session cookie lives. The flow is consumed (this
 * browser, link intent), must belong to the session presenting it (still live: the
 * route resolved it), and the provider account is connected with linkIdentity: 409
 * identity_already_linked when it signs in as someone else. It ends at the flow's
 * redirect_url (default: the hosted account page), with `error=` on failure.
 */
export async function completeLink(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  query: CallbackQuery,
  context: RequestContext,
): Promise<string> {
  const here = linkBase(environment, context.host);
  const flow = await consumeFlow(db, environment.id, { state: query.state, browserToken: context.cookies?.[BROWSER_COOKIE], intent: "link" });
  if (!flow) return failureLocation(null, null, here, "oauth_state_invalid");
  try {
    if (flow.sessionId !== current.session.id || flow.userId !== current.user.id) {
      throw new AppError("forbidden", "This connection was started by another session.");
    }
    const profile = await profileForFlow(db, environment, flow, query, context.requestId);
    const actor: RequestActor = { type: "user", id: current.user.id, requestId: context.requestId };
    await db.transaction((tx) => linkIdentity(tx, environment, current.user, { providerId: flow.providerId, profile }, actor));
  } catch (error) {
    return failureLocation(environment, flow, flow.base, failureCode(error, context.requestId));
  }
  // The default, the account page, names the environment with pk where the host does not.
  return flow.redirectUrl ? safeRedirect(flow.redirectUrl, environment, flow.base).url : environmentUrl(flow.base, "/account");
}
