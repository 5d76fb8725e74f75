import { AppError } from "../errors";
import { problemResponse } from "./problem";
import { requestIdFor } from "./request-id";

/** The methods Next.js dispatches to a route file's exports; it answers any other with a bare 400. */
export const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export type RouteMethod = (typeof ROUTE_METHODS)[number];

type Handler = (request: Request) => Response;

/**
 * The `Allow` value for a resource whose own handlers serve `methods`: HEAD comes with
 * GET (as Next.js answers it) and OPTIONS is always answered.
 */
export function allowHeader(methods: Iterable<string>): string {
  const supported = new Set([...methods, "OPTIONS"]);
  if (supported.has("GET")) supported.add("HEAD");
  return ROUTE_METHODS.filter((method) => supported.has(method)).join(", ");
}

/** 405 problem+json `method_not_allowed` (CONTRACT §4) with the `Allow` header. */
export function methodNotAllowed(request: Request, allow: string): Response {
  return problemResponse(
    new AppError("method_not_allowed", `${request.method.slice(0, 20)} is not supported here; use ${allow}.`, { headers: { allow } }),
    requestIdFor(request),
  );
}

/** Handlers that stand for "not supported"; the route table leaves them out of `Allow`. */
const refusals = new WeakSet<object>();

export function isUnsupportedMethodHandler(handler: unknown): boolean {
  return typeof handler === "function" && refusals.has(handler);
}

type Unsupported<T> = Exclude<RouteMethod, keyof T | (T extends { GET: unknown } ? "HEAD" : never)>;

/**
 * The exports a route file adds for every method it does not support, so that Next.js
 * (which would answer them with an empty 405, and OPTIONS with an `Allow` listing these
 * very exports) and the fast path answer alike: 405 problem+json with `Allow`, and
 * OPTIONS 204 with `Allow` unless the file has its own (CORS preflight).
 *
 *     export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
 */
export function unsupportedMethods<T extends Partial<Record<RouteMethod, unknown>>>(supported: T): Record<Unsupported<T>, Handler> {
  const allow = allowHeader(Object.keys(supported));
  const refuse: Handler = (request) => methodNotAllowed(request, allow);
  refusals.add(refuse);
  const options: Handler = () => new Response(null, { status: 204, headers: { allow } });
  const handlers: Partial<Record<RouteMethod, Handler>> = {};
  for (const method of ROUTE_METHODS) {
    if (method in supported || (method === "HEAD" && "GET" in supported)) continue;
    handlers[method] = method === "OPTIONS" ? options : refuse;
  }
  return handlers as Record<Unsupported<T>, Handler>;
}
