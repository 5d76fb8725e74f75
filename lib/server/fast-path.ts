import type { IncomingMessage, ServerResponse } from "node:http";
import { randomToken } from "../crypto/tokens";
import { AppError } from "../errors";
import { serviceUnavailableFor } from "../http/database-faults";
import { logUnexpectedError } from "../log";
import { problemResponse } from "../http/problem";
import { requestIdFor } from "../http/request-id";
import { resolveRoute } from "../http/route-table";
import { bodyStillArriving, toWebRequest } from "./node-request";
import { sendWebResponse } from "./node-response";
import { recordSocketAddress } from "./socket-address";

/**
 * URLs answered by route handlers only (no pages, no middleware, no rewrites), which
 * the fast path may serve without Next.js's router: the Client API, the Server API
 * and the discovery documents.
 */
export const FAST_PATH_PREFIXES = ["/_svc/", "/api/server/", "/api/openapi.json", "/.well-known/"] as const;

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The pathname of a request the fast path may take, or null. Anything Next.js would
 * first normalise (a trailing slash, `//`, a backslash) is left to Next, so its
 * redirects stay exactly as they are.
 */
export function fastPathPathname(url: string | undefined): string | null {
  if (!url || !url.startsWith("/") || url.startsWith("//")) return null;
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  if (pathname.length > 1 && pathname.endsWith("/")) return null;
  if (pathname.includes("//") || pathname.includes("\\")) return null;
  return FAST_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix)) ? pathname : null;
}

/**
 * A request listener that calls the App Router's route handlers directly for API
 * URLs, whatever the method (an unsupported one is the route table's 405), and hands
 * everything else (pages, assets, URLs no route file matches) to Next.js. Route handlers are plain `(Request, ctx) => Response` functions, so the
 * same function answers either way; skipping Next's router saves about a millisecond
 * of CPU per request, which is most of the cost of a boot probe.
 */
export function createFastPath(options: { next: NodeHandler; port: () => number }): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // Before anything reads the headers, so Next.js's pages and actions see the socket too.
    recordSocketAddress(req);
    serveFast(req, res, options.port())
      .then((handled) => (handled ? undefined : options.next(req, res)))
      .catch((error: unknown) => failRequest(req, res, error, null));
  };
}

/** Serves the request if a route handler of ours takes it; false hands it to Next.js. */
async function serveFast(req: IncomingMessage, res: ServerResponse, port: number): Promise<boolean> {
  const pathname = fastPathPathname(req.url);
  if (!pathname) return false;
  const method = req.method ?? "GET";
  let request: Request | null = null;
  try {
    const route = await resolveRoute(method, pathname);
    if (!route) return false; // no route file matches: Next.js answers (its 404 page)
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    request = toWebRequest(req, port, aborted.signal);
    const response = await route.handler(request, { params: Promise.resolve(route.params) });
    await sendWebResponse(res, response, { head: method === "HEAD", close: bodyStillArriving(req) });
  } catch (error) {
    // The route wrappers turn their own errors into problem+json; this catches what
    // escapes them: a handler outside the wrappers, a header undici or Node refuses.
    await failRequest(req, res, error, request);
  }
  return true;
}

/**
 * problem+json for a failure outside the route wrappers: an AppError as itself (a
 * malformed path), a lost database connection as 503, anything else as a 500 with a
 * request id whose cause goes to the log only. Never throws.
 */
async function failRequest(req: IncomingMessage, res: ServerResponse, caught: unknown, request: Request | null): Promise<void> {
  const requestId = request ? requestIdFor(request) : `req_${randomToken(12)}`;
  const error = serviceUnavailableFor(caught, requestId) ?? caught;
  if (!(error instanceof AppError)) logUnexpectedError(requestId, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const appError = error instanceof AppError ? error : new AppError("internal_error", `Something went wrong; quote request id ${requestId}.`);
  const problem = problemResponse(appError, requestId);
  const close = bodyStillArriving(req) || !(error instanceof AppError);
  await sendWebResponse(res, problem, { head: req.method === "HEAD", close }).catch(() => res.destroy());
}
