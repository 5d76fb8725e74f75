import type { Database } from "@/db/client";
import { isProduction } from "../config/runtime";
import { normalizeOrigin } from "../environments/allowed-origins";
import type { EnvironmentContext } from "../environments/context";
import { linkBase, type LinkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { FlowCookie } from "../operation/response-effects";
import { isFrontendHostOrigin } from "../environments/environment-origins";
import { safeRedirect } from "../flows/safe-redirect";
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
 * 2. /sync, with a live ACTIVE session, issues a one-time ticket bound to that hash
 *    and sends the browser back with it (a PENDING session is refused before this:
 *    the operation's auth level, optionalSession).
 * 3. The establish on the satellite opens the session only for the browser that
 *    holds the nonce.
 *
 * A web ticket is a whole sign-in, second factor included, and needs no verifier:
 * /sync hands it to nothing but the establish endpoint of another of the
 * environment's frontend hosts, where only the browser holding the nonce can use it
 * (any other burns it). Were any page of an allowed origin a target, an attacker who
 * set their own nonce cookie could have a signed-in victim's ticket sent to a page
 * whose scripts (an XSS, a third-party tag) read it from the URL, and redeem it. The
 * app's own page travels as establish's `redirect_url`: https (http only on a
 * loopback host outside production) on a frontend host or allowed origin, never a
 * custom scheme, which any app may register. A refused target is an error, never a
 * fallback, so no ticket leaves for a page nobody asked for.
 */

export const SYNC_PATH = "/_svc/auth/sync";
export const ESTABLISH_PATH = "/_svc/auth/session/establish";
export const MAX_REDIRECT_URL_LENGTH = 2048;

const REFUSED_DESTINATION =
  "must be an https URL (http only on a loopback host, outside production) on one of the environment's frontend hosts or allowed origins";
const REFUSED_ESTABLISH = `must be ${ESTABLISH_PATH} on another of the environment's frontend hosts, with at most its own redirect_url, as GET ${SYNC_PATH}/start builds it`;

/**
 * The satellite page the sync ends on, as an absolute URL, or a 400 naming
 * redirect_url. A path stays on `base`, the satellite's host.
 */
function syncDestination(environment: EnvironmentContext, requested: string, base: LinkBase): URL {
  const decision = safeRedirect(requested, environment, base);
  if (!decision.accepted) throw invalidField("redirect_url", REFUSED_DESTINATION);
  const url = new URL(decision.url);
  if (!isSecure(url)) throw invalidField("redirect_url", REFUSED_DESTINATION);
  return url;
}

function isSecure(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname) && !isProduction());
}

/**
 * Where /sync, answering on `here`, may send a ticket: exactly
 * `{satellite}/_svc/auth/session/establish[?redirect_url=…]`, the satellite being a
 * frontend host of the environment other than `here`, and its `redirect_url` a
 * destination as /sync/start accepts it. Anything else is a 400 naming redirect_url.
 */
function establishTarget(environment: EnvironmentContext, requested: string, here: LinkBase): URL {
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    throw invalidField("redirect_url", REFUSED_ESTABLISH);
  }
  const origin = normalizeOrigin(url.origin);
  const satellite = origin !== null && origin !== normalizeOrigin(here.origin) && isFrontendHostOrigin(environment, origin);
  const names = [...url.searchParams.keys()];
  // Nothing but redirect_url: establish must not be pointed at another environment (pk) or handed a ticket of the caller's.
  const shaped = url.pathname === ESTABLISH_PATH && !url.hash && !url.username && !url.password && names.every((name) => name === "redirect_url") && names.length <= 1;
  if (!satellite || !shaped || !isSecure(url)) throw invalidField("redirect_url", REFUSED_ESTABLISH);
  const target = new URL(ESTABLISH_PATH, url.origin);
  const destination = url.searchParams.get("redirect_url");
  if (destination) target.searchParams.set("redirect_url", syncDestination(environment, destination, { origin: target.origin, publishableKey: null }).toString());
  return target;
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
  const back = syncDestination(environment, redirectUrl, here);
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
 * to `binding` when an ACTIVE session is live here, else `redirect_url` as it is.
 */
export async function satelliteSyncTarget(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  request: { redirectUrl: string; binding: string },
  context: RequestContext,
): Promise<string> {
  const target = establishTarget(environment, request.redirectUrl, linkBase(environment, context.host));
  if (!current) return target.toString();
  const primary = current.session;
  const ticket = await issueSessionTicket(db, environment, {
    user: current.user,
    // The satellite continues the primary's sign-in: same proof, so a second factor given there is not asked again.
    methods: primary.amr.filter((method): method is AuthMethod => (AUTH_METHODS as readonly string[]).includes(method)),
    // A satellite's own satellites hang off the primary too, so one level of cascade ends them all.
    parentSessionId: primary.parentSessionId ?? primary.id,
    binding: request.binding,
  });
  target.searchParams.set("ticket", ticket);
  return target.toString();
}
