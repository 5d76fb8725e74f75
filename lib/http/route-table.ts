import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { AppError } from "../errors";
import { allowHeader, isUnsupportedMethodHandler, methodNotAllowed, ROUTE_METHODS } from "./method-not-allowed";
import { apiNotFound } from "./not-found";
import type { RouteContext } from "./route";

/** A route export as Next.js calls it; a few static routes answer synchronously. */
export type RouteModuleHandler = (request: Request, context: RouteContext) => Response | Promise<Response>;

export type RouteParams = Record<string, string | string[]>;

export interface ResolvedRoute {
  handler: RouteModuleHandler;
  params: RouteParams;
}

interface RouteFile {
  catchAll: boolean;
  pattern: RegExp;
  paramNames: string[];
  file: string;
  /** The URL up to the first dynamic segment, e.g. `/_svc/users/me/sessions/`. */
  staticPrefix: string;
}

const APP_DIR = path.resolve(import.meta.dirname, "../../app");

/**
 * The App Router's file-system routes (`app/**\/route.ts`) as a table. The tests send
 * Requests through it without a server, and the production fast path
 * (lib/server/fast-path.ts) dispatches API requests through it without Next's
 * router: one table, so both reach exactly the handlers Next.js mounts.
 */
function discover(dir: string, segments: string[] = []): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...discover(full, [...segments, entry.name]));
    else if (entry.name === "route.ts") found.push(compile(segments, full));
  }
  return found;
}

function compile(segments: string[], file: string): RouteFile {
  const paramNames: string[] = [];
  const parts: string[] = [];
  const literals: string[] = [];
  let catchAll = false;
  let staticPrefix: string | null = null;
  for (const segment of segments.filter((name) => !/^\(.*\)$/.test(name))) {
    const param = /^\[(\.\.\.)?(\w+)\]$/.exec(segment);
    if (param) {
      staticPrefix ??= `/${literals.join("/")}/`;
      paramNames.push(param[2] ?? "");
      catchAll ||= Boolean(param[1]);
      parts.push(param[1] ? "(.+)" : "([^/]+)");
    } else {
      const literal = decodeURIComponent(segment);
      literals.push(literal);
      parts.push(literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    }
  }
  return {
    catchAll,
    pattern: new RegExp(`^/${parts.join("/")}/?$`),
    paramNames,
    file,
    staticPrefix: staticPrefix ?? `/${literals.join("/")}`,
  };
}

// Like Next.js: static segments win over dynamic ones, and catch-alls come last.
const routes = discover(APP_DIR).sort(
  (a, b) => Number(a.catchAll) - Number(b.catchAll) || a.paramNames.length - b.paramNames.length,
);

type RouteModule = Partial<Record<string, RouteModuleHandler>>;

// Dynamic import() goes through the module loader (and tsx's resolve hook) on
// every call; the fast path resolves a route per request, so keep each module once.
const modules = new Map<string, Promise<RouteModule>>();

function loadModule(file: string): Promise<RouteModule> {
  let loaded = modules.get(file);
  if (!loaded) {
    // A file URL, not the bare path: Node would read `%5Fsvc` in a path specifier
    // as a percent-escape and look for `_svc`.
    loaded = import(pathToFileURL(file).href) as Promise<RouteModule>;
    modules.set(file, loaded);
    loaded.catch(() => modules.delete(file));
  }
  return loaded;
}

function decodeParams(route: RouteFile, match: RegExpExecArray): RouteParams {
  try {
    return Object.fromEntries(
      route.paramNames.map((name, i) => {
        const raw = match[i + 1] ?? "";
        // Next.js hands a catch-all segment over as an array of decoded segments.
        const value = route.catchAll && i === route.paramNames.length - 1 ? raw.split("/").map(decodeURIComponent) : decodeURIComponent(raw);
        return [name, value];
      }),
    );
  } catch {
    // Bad input, not a server fault (CONTRACT §4: never a 500 for bad input).
    throw new AppError("invalid_request", "The URL path is not valid percent-encoding.");
  }
}

/**
 * The handler serving `method pathname`, or null when no route matches. HEAD falls
 * back to GET, as in Next.js. A method the route file does not export (WebDAV verbs
 * and the like, which Next.js itself would answer with a bare 400) gets 405
 * problem+json with `Allow`, and a catch-all's 404 whatever the method. A path whose
 * parameters are not valid percent-encoding throws AppError `invalid_request`.
 */
export async function resolveRoute(method: string, pathname: string): Promise<ResolvedRoute | null> {
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const routeModule = await loadModule(route.file);
    const upper = method.toUpperCase();
    const handler = routeModule[upper] ?? (upper === "HEAD" ? routeModule.GET : undefined) ?? unexportedMethod(routeModule, upper);
    return { handler, params: decodeParams(route, match) };
  }
  return null;
}

function unexportedMethod(routeModule: RouteModule, method: string): RouteModuleHandler {
  if (routeModule.GET === apiNotFound) return apiNotFound;
  const allow = allowHeader(
    ROUTE_METHODS.filter((name) => routeModule[name] && !isUnsupportedMethodHandler(routeModule[name])),
  );
  if (method === "OPTIONS") return () => new Response(null, { status: 204, headers: { allow } });
  return (request) => methodNotAllowed(request, allow);
}

/** Imports every route module whose URL starts with one of `prefixes`, so the first requests pay no compile time. */
export async function preloadRoutes(prefixes: readonly string[]): Promise<number> {
  const wanted = routes.filter((route) => prefixes.some((prefix) => route.staticPrefix.startsWith(prefix)));
  await Promise.all(wanted.map((route) => loadModule(route.file)));
  return wanted.length;
}
