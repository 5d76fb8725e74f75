import { publicUrl } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";
import { frontendHostOrigin } from "../environments/environment-links";

/**
 * The environment's issuer: its first frontend host under `/_svc`, with PUBLIC_URL's
 * scheme (and port, when the host names none). Discovery lives at
 * `{issuer}/.well-known/openid-configuration`, resolved by that same Host.
 */
export function issuerFor(environment: EnvironmentContext): string {
  return `${frontendHostOrigin(environment.frontendHosts[0] ?? new URL(publicUrl()).host)}/_svc`;
}
