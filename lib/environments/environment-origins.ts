import { publicUrl } from "../config/runtime";
import { normalizeOrigin } from "./allowed-origins";
import type { EnvironmentContext } from "./context";
import { frontendHostOrigin } from "./environment-links";

/**
 * The origin a frontend host entry stands for (lib/environments/environment-links.ts:
 * PUBLIC_URL's scheme, the entry's host, PUBLIC_URL's port when the entry names none),
 * compared whole: `acme.example.com` is never `http://acme.example.com` under an https
 * PUBLIC_URL, nor another port. Links, redirects, the issuer and CORS share the rule.
 */
function frontendOrigin(host: string): string | null {
  return normalizeOrigin(frontendHostOrigin(host));
}

/** True when the normalised `origin` is one of the environment's frontend hosts. */
export function isFrontendHostOrigin(environment: EnvironmentContext, origin: string): boolean {
  return environment.frontendHosts.some((host) => frontendOrigin(host) === origin);
}

/** True when the normalised `origin` is PUBLIC_URL's: Gatehouse's own host, shared by every environment. */
export function isPublicUrlOrigin(origin: string): boolean {
  return origin === normalizeOrigin(new URL(publicUrl()).origin);
}
