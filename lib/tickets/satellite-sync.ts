import type { Database } from "@/db/client";
import { isProduction } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";
import { linkBase, type LinkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import type { RequestContext } from "../http/request-context";
import type { FlowCookie } from "../http/response-effects";
import { safeRedirect } from "../http/safe-redirect";
import { isLoopbackHost } from "../oauth/provider-presets";
import { AUTH_METHODS, type AuthMethod } from "../sessions/establish-session";
import type { ActiveSession } from "../sessions/resolve-session";
import { issueSessionTicket } from "./session-tickets";
import { newSyncBinding } from "./sync-binding";

/**
 * Satellite sync: an app on another frontend host of the environment (a
 * satellite) gets a session of its own from the one on the primary host, parented
 * to it, so that it ends when the primary ends.
 *
 * 1. GET /_svc/auth/sync/start on the satellite leaves a nonce cookie there
 *    (lib/tickets/sync-binding.ts) and sends the browser to the primary's
 *    GET /_svc/auth/sync with the nonce's hash (`binding`) and, as `redirect_url`,
 *    the satellite's own GET /_svc/auth/session/establish.
 * 2. /sync, with a live session, issues a one-time ticket bound to that hash and
 *    sends the browser back with it.
 * 3. The establish on the satellite opens the session only for the browser that
 *    holds the nonce.
 *
 * A web ticket is a whole sign-in, second factor included, and needs no verifier:
 * it goes only to https pages (http only on a loopback host outside production) of
 * the environment's frontend hosts and allowed origins, never to a custom scheme,
 * which any app may register. A refused target is an error, never a fallback, so
 * no ticket leaves for a page nobody asked for.
 */

export const SYNC_PATH = "/_svc/auth/sync";
export const ESTABLISH_PATH = "/_svc/auth/session/establish";
export const MAX_REDIRECT_URL_LENGTH = 2048;

const REFUSED_TARGET =
  "must be an https URL (http only on a loopback host, outside production) on one of the environment's frontend hosts or allowed origins";

/**
 * `requested` as an absolute URL a ticket may be sent to, or a 400 naming
 * redirect_url. A path (when `allowPath`) stays on `base`, the host it was asked on.
 */
function ticketTarget(environment: EnvironmentContext, requested: string, base: LinkBase, allowPath: boolean): URL {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(requested);
  const decision = safeRedirect(requested, environment, base);
  if (!decision.accepted || (!absolute && !allowPath)) throw invalidField("redirect_url", REFUSED_TARGET);
  const url = new URL(decision.url);
  const secure = url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname) && !isProduction());
  if (!secure) throw invalidField("redirect_url", REFUSED_TARGET);
  return url;
}

/**
 * GET /_svc/auth/sync/start, on a satellite: where to send the browser (the
 * primary's /sync) and the nonce cookie to leave here. Only on a frontend host of
 * the environment that is not its primary (linkBase(environment, null): the
 * environment's canonical frontend origin), else 400.
 */
export function startSatelliteSync(environment: EnvironmentContext, redirectUrl: string, context: RequestContext): { location: string; cookie: FlowCookie } {
  const here = linkBase(environment, context.host);
  const primary = linkBase(environment, null);
  if (here.publishableKey !== null) {
    throw new AppError("invalid_request", "Satellite sync starts on one of the environment's frontend hosts, where the satellite's session cookie will live.");
  }
  if (here.origin === primary.origin) {
    throw new AppError("invalid_request", "This is the environment's primary host: its session needs no sync.");
  }
  const back = ticketTarget(environment, redirectUrl, here, true);
  const { cookie, binding } = newSyncBinding(context.secure === true);
  const establish = new URL(ESTABLISH_PATH, here.origin);
  establish.searchParams.set("redirect_url", back.toString());
  // /sync takes redirect_urls of up to 2048 characters: refused here, not there.
  if (establish.toString().length > MAX_REDIRECT_URL_LENGTH) throw invalidField("redirect_url", "is too long to be carried through the sync");
  const sync = new URL(SYNC_PATH, primary.origin);
  sync.searchParams.set("redirect_url", establish.toString());
  sync.searchParams.set("binding", binding);
  return { location: sync.toString(), cookie };
}

/**
 * GET /_svc/auth/sync, on the primary: `{redirect_url}?ticket=` with a ticket bound
 * to `binding` when a session is live here, else `redirect_url` as it is.
 */
export async function satelliteSyncTarget(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  request: { redirectUrl: string; binding: string },
  context: RequestContext,
): Promise<string> {
  const target = ticketTarget(environment, request.redirectUrl, linkBase(environment, context.host), false);
  if (!current) return target.toString();
  const primary = current.session;
  const ticket = await issueSessionTicket(db, environment, {
    userId: current.user.id,
    email: current.user.email,
    // The satellite continues the primary's sign-in: same proof, so a second factor given there is not asked again.
    methods: primary.amr.filter((method): method is AuthMethod => (AUTH_METHODS as readonly string[]).includes(method)),
    // A satellite's own satellites hang off the primary too, so one level of cascade ends them all.
    parentSessionId: primary.parentSessionId ?? primary.id,
    binding: request.binding,
  });
  target.searchParams.set("ticket", ticket);
  return target.toString();
}
