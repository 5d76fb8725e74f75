import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { findClientEnvironment } from "@/lib/environments/resolve-client-environment";
import { hostedRequestFrom } from "@/lib/hosted/action-request";
import { framingHeaders } from "@/lib/hosted/framing";
import { allowHeader, methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Pages answer GET (and HEAD) and POST, the method their server actions arrive with. */
const PAGE_METHODS = ["GET", "HEAD", "POST"];
const PAGE_ALLOW = allowHeader(PAGE_METHODS);

/**
 * Runs in front of every page (not the API routes, which the matcher leaves out and
 * the fast path serves without Next.js), under `next start` and the production server
 * alike. A page's framing policy depends on its environment (Host or `pk`), which only
 * a request-time step can know; Next.js would render a page for any method.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: PAGE_ALLOW } });
  if (!PAGE_METHODS.includes(request.method)) return methodNotAllowed(request, PAGE_ALLOW);
  // The development mailbox belongs to no environment, and its emails render in srcdoc frames of its own.
  if (request.nextUrl.pathname.startsWith("/dev/")) return NextResponse.next();
  // The dashboard belongs to no environment either: never framed, whatever the Host's environment allows.
  if (request.nextUrl.pathname === "/dashboard" || request.nextUrl.pathname.startsWith("/dashboard/")) return withFraming(NextResponse.next(), null);
  const tenant = hostedRequestFrom(request.headers, request.nextUrl.searchParams.get("pk"));
  // An unreachable database must not stop the page's own error handling; the default policy is the strict one.
  const environment = await findClientEnvironment(getDb(), tenant).catch(() => null);
  return withFraming(NextResponse.next(), environment);
}

function withFraming(response: NextResponse, environment: Parameters<typeof framingHeaders>[0]): NextResponse {
  for (const [name, value] of Object.entries(framingHeaders(environment))) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but the route handlers' URLs and Next.js's own assets.
  matcher: ["/((?!_svc/|_svc$|api/|api$|\\.well-known/|dev/mailbox/messages|_next/).*)"],
};
