import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { ipRateLimitKey } from "../operation/client-ip";
import type { RequestContext } from "../operation/request-context";
import { consumeRateLimits } from "./consume";

export type LimitedAction = "signUp" | "signIn" | "codeAttempts" | "emailSends" | "passkeyOptions" | "organizationInvitations";

export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited", `Too many attempts; try again in ${retryAfterSeconds} s.`, {
    headers: { "retry-after": String(retryAfterSeconds) },
  });
}

/**
 * Counts an attempt at `action` against the caller's IP (IPv6 by /64) and, when
 * given, the identifier it targets (an email, a sign-up token), and throws 429
 * with Retry-After when either is over the environment's limit.
 */
export async function enforceRateLimit(
  db: Database,
  environment: EnvironmentContext,
  action: LimitedAction,
  context: Pick<RequestContext, "ip">,
  identifier?: string,
): Promise<void> {
  const keys = [`${environment.id}:${action}:ip:${ipRateLimitKey(context.ip)}`];
  if (identifier) keys.push(identifierKey(environment, action, identifier));
  await consume(db, environment, action, keys);
}

/**
 * Counts an attempt against an identifier only, for an operation whose per-IP limit
 * the pipeline already counted and whose identifier is known only once its input
 * was looked up (the account behind an mfaToken).
 */
export async function enforceIdentifierRateLimit(db: Database, environment: EnvironmentContext, action: LimitedAction, identifier: string): Promise<void> {
  await consume(db, environment, action, [identifierKey(environment, action, identifier)]);
}

function identifierKey(environment: EnvironmentContext, action: LimitedAction, identifier: string): string {
  return `${environment.id}:${action}:id:${identifier.toLowerCase()}`;
}

async function consume(db: Database, environment: EnvironmentContext, action: LimitedAction, keys: string[]): Promise<void> {
  const { rateLimits } = environment.settings;
  if (!rateLimits.enabled) return;
  const wait = await consumeRateLimits(db, keys, rateLimits[action]);
  if (wait > 0) throw rateLimited(wait);
}
