import { apiNotFound } from "../http/not-found";
import { handlers } from "./auth";
import { STAFF_SSO_PROVIDER } from "./staff-sso";

const CALLBACK_PATH = `/dashboard/api/auth/callback/${STAFF_SSO_PROVIDER}`;

/**
 * The one next-auth URL the dashboard serves over HTTP: the staff identity
 * provider's redirect back (a GET with code and state). Everything else next-auth
 * could answer (its own sign-in page, a JSON session, a credentials POST) is a 404:
 * sign-in, sign-out and the session go through the dashboard's server actions and
 * pages, so there is one way in to review.
 */
export async function dashboardAuthCallback(request: Request): Promise<Response> {
  if (new URL(request.url).pathname !== CALLBACK_PATH) return apiNotFound(request);
  // next-auth types its handlers for a NextRequest; the handler reads no more than a Request has.
  return handlers.GET(request as Parameters<typeof handlers.GET>[0]);
}
