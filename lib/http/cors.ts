import { publicUrl } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Origins that may call this environment's Client API from a browser: its
 * allowed-origins list, its frontend hosts, and Gatehouse's own hosted pages.
 */
export function browserOriginAllowed(environment: EnvironmentContext, origin: string): boolean {
  if (environment.allowedOrigins.includes(origin)) return true;
  if (origin === new URL(publicUrl()).origin) return true;
  let host: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== "https:" && url.protocol !== "http:") return false;
    host = url.host;
  } catch {
    return false;
  }
  return environment.frontendHosts.some((frontend) => frontend === host || frontend === host.replace(/:\d+$/, ""));
}

/**
 * Refuses a state-changing browser request from a foreign Origin (CSRF defence on
 * top of SameSite=Lax). Requests without Origin come from non-browser clients.
 */
export function assertOriginAllowed(request: Request, environment: EnvironmentContext): void {
  const origin = request.headers.get("origin");
  if (!origin || SAFE_METHODS.has(request.method)) return;
  if (!browserOriginAllowed(environment, origin)) {
    throw new AppError("origin_not_allowed", `Origin ${origin.slice(0, 200)} is not allowed for this environment.`);
  }
}

/** CORS response headers, with credentials, for an allowed Origin; none otherwise. */
export function corsHeaders(request: Request, environment: EnvironmentContext | null): Record<string, string> {
  const origin = request.headers.get("origin");
  const headers: Record<string, string> = { vary: "Origin" };
  if (!origin || !environment || !browserOriginAllowed(environment, origin)) return headers;
  return {
    ...headers,
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": "X-Request-Id, Retry-After",
  };
}

export function preflightHeaders(request: Request, environment: EnvironmentContext | null): Record<string, string> {
  const headers = corsHeaders(request, environment);
  if (!headers["access-control-allow-origin"]) return headers;
  return {
    ...headers,
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers": "Content-Type, Authorization, X-API-Key, X-Request-Id",
    "access-control-max-age": "600",
  };
}
