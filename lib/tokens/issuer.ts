import { publicUrl } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";

/**
 * The environment's issuer: its first frontend host under `/_svc`, with PUBLIC_URL's
 * scheme (and port, when the host names none). Discovery lives at
 * `{issuer}/.well-known/openid-configuration`, resolved by that same Host.
 */
export function issuerFor(environment: EnvironmentContext): string {
  const base = new URL(publicUrl());
  const host = environment.frontendHosts[0] ?? base.host;
  const withPort = /:\d+$/.test(host) || !base.port ? host : `${host}:${base.port}`;
  return `${base.protocol}//${withPort}/_svc`;
}
