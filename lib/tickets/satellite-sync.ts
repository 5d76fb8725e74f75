import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { linkBase } from "../environments/environment-links";
import { invalidField } from "../errors";
import type { RequestContext } from "../http/request-context";
import { safeRedirect } from "../http/safe-redirect";
import { AUTH_METHODS, type AuthMethod } from "../sessions/establish-session";
import type { ActiveSession } from "../sessions/resolve-session";
import { issueSessionTicket } from "./session-tickets";

/**
 * Satellite sync (GET /_svc/auth/sync): an app on another domain sends the browser
 * here, to the primary domain where the session cookie lives; it comes back with a
 * one-time ticket that the satellite redeems on its own host (GET
 * /_svc/auth/session/establish), getting a session of its own whose parent is the
 * primary session, so that it ends when the primary ends.
 *
 * The target must be an absolute URL the environment allows (its allowed origins
 * and frontend hosts): a ticket is a sign-in, and it is handed to no one else. A
 * refused target is an error, never a fallback, so no ticket leaves for a page
 * nobody asked for. Without a session the browser goes back with no ticket.
 */
export async function satelliteSyncTarget(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession | null,
  redirectUrl: string,
  context: RequestContext,
): Promise<string> {
  const decision = safeRedirect(redirectUrl, environment, linkBase(environment, context.host));
  if (!decision.accepted || !/^[a-z][a-z0-9+.-]*:/i.test(redirectUrl)) {
    throw invalidField("redirect_url", "must be an absolute URL on one of the environment's allowed origins or frontend hosts");
  }
  if (!current) return decision.url;
  const primary = current.session;
  const ticket = await issueSessionTicket(db, environment, {
    userId: current.user.id,
    email: current.user.email,
    // The satellite continues the primary's sign-in: same proof, so a second factor given there is not asked again.
    methods: primary.amr.filter((method): method is AuthMethod => (AUTH_METHODS as readonly string[]).includes(method)),
    // A satellite's own satellites hang off the primary too, so one level of cascade ends them all.
    parentSessionId: primary.parentSessionId ?? primary.id,
  });
  const target = new URL(decision.url);
  target.searchParams.set("ticket", ticket);
  return target.toString();
}
