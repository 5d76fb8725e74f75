import { NextRequest } from "next/server";
import { publicUrl } from "../config/runtime";
import { apiNotFound } from "../http/not-found";
import { DASHBOARD_AUTH_BASE_PATH, handlers } from "./auth";
import { STAFF_SSO_PROVIDER } from "./staff-sso";

const CALLBACK_PATH = `${DASHBOARD_AUTH_BASE_PATH}/callback/${STAFF_SSO_PROVIDER}`;

/**
 * The one next-auth URL the dashboard serves over HTTP: the staff identity
 * provider's redirect back (a GET with code and state). Everything else next-auth
 * could answer (its own sign-in page, a JSON session, a credentials POST) is a 404:
 * sign-in, sign-out and the session go through the dashboard's server actions and
 * pages, so there is one way in to review. The request reaches next-auth on
 * PUBLIC_URL's origin, whatever Host or X-Forwarded-Host it came with: the
 * redirect_uri it redeems the code with, and where it sends the browser on, are
 * PUBLIC_URL's (lib/dashboard/auth.ts, dashboardAuthUrl), never a name the client chose.
 */
export async function dashboardAuthCallback(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname !== CALLBACK_PATH) return apiNotFound(request);
  const pinned = new NextRequest(new URL(`${url.pathname}${url.search}`, new URL(publicUrl()).origin), { method: "GET", headers: request.headers });
  // next-auth types its handlers for a NextRequest; this is one.
  return handlers.GET(pinned as Parameters<typeof handlers.GET>[0]);
}
