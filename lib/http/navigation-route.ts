import type { z } from "zod";
import type { AuthLevel } from "../operation/operation";
import type { Endpoint } from "../operation/endpoint";
import { route, type RouteHandler } from "./route";

type ZodOrNone = z.ZodType | undefined;

/**
 * A Client API endpoint that browsers navigate to (links and redirects, which
 * cannot send headers): besides `X-API-Key` and the Host, the environment may be
 * named by a `pk` query parameter, as the hosted pages do on PUBLIC_URL. The
 * publishable key is public; it only picks the environment, never a session.
 */
export function navigationRoute<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  target: Endpoint<P, Q, B, R, A>,
): RouteHandler {
  const handler = route(target);
  return (request, context) => handler(withQueryPublishableKey(request), context);
}

function withQueryPublishableKey(request: Request): Request {
  if (request.headers.get("x-api-key")) return request;
  const publishableKey = new URL(request.url).searchParams.get("pk");
  if (!publishableKey) return request;
  const headers = new Headers(request.headers);
  headers.set("x-api-key", publishableKey);
  return new Request(request, { headers });
}
