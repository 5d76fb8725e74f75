import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { ipRateLimitKey } from "../http/client-ip";
import type { RequestContext } from "../http/request-context";
import { consumeRateLimits } from "./consume";

export type LimitedAction = "signUp" | "signIn" | "codeAttempts" | "emailSends" | "passkeyOptions";

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
  const { rateLimits } = environment.settings;
  if (!rateLimits.enabled) return;
  const rule = rateLimits[action];
  const keys = [`${environment.id}:${action}:ip:${ipRateLimitKey(context.ip)}`];
  if (identifier) keys.push(`${environment.id}:${action}:id:${identifier.toLowerCase()}`);
  const wait = await consumeRateLimits(db, keys, rule);
  if (wait > 0) throw rateLimited(wait);
}
