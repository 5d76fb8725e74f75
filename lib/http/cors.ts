import { normalizeOrigin } from "../environments/allowed-origins";
import type { EnvironmentContext } from "../environments/context";
import { isFrontendHostOrigin, isPublicUrlOrigin } from "../environments/environment-origins";
import { AppError } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every Client API answer depends on the environment, which the Host (or a proxy's
 * X-Forwarded-Host) or X-API-Key selects, and its CORS headers on the Origin: a shared
 * cache must key on all of them, or one tenant's JWKS or discovery document could be
 * served for another's host.
 */
const CLIENT_VARY = "Origin, Host, X-Forwarded-Host, X-API-Key";

/**
 * Origins that may call this environment's Client API from a browser: its
 * allowed-origins list, its frontend hosts and Gatehouse's own hosted pages, each
 * compared as a whole origin (scheme, host and port).
 */
export function browserOriginAllowed(environment: EnvironmentContext, origin: string): boolean {
  const candidate = normalizeOrigin(origin);
  if (!candidate) return false;
  if (environment.allowedOrigins.includes(candidate)) return true;
  if (!candidate.startsWith("https://") && !candidate.startsWith("http://")) return false;
  return isPublicUrlOrigin(candidate) || isFrontendHostOrigin(environment, candidate);
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
  const headers: Record<string, string> = { vary: CLIENT_VARY };
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
