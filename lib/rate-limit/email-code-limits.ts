import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { consumeRateLimit, refundRateLimit } from "./consume";
import { rateLimited } from "./enforce";

/** The daily per-address counters of `rateLimits` (settings.ts). */
export type EmailCodeCounter = "codeFailuresPerEmail" | "codeSendsPerEmail";
/** The flow the code belongs to: each keeps its own counters, so guessing one cannot block the other. */
export type EmailCodeFlow = "sign_up" | "password_reset";

function counterKey(environment: EnvironmentContext, counter: EmailCodeCounter, flow: EmailCodeFlow, email: string): string {
  return `${environment.id}:${counter}:${flow}:${email.toLowerCase()}`;
}

/**
 * Counts one code email or one code guess against the address, whatever token it
 * came with and whether or not the address has an account: per-token limits alone
 * fall to an attacker who simply starts another sign-up. Returns the seconds to
 * wait when the address is over its daily cap, else 0.
 */
export async function consumeEmailCodeLimit(
  db: Database,
  environment: EnvironmentContext,
  counter: EmailCodeCounter,
  flow: EmailCodeFlow,
  email: string,
): Promise<number> {
  const { rateLimits } = environment.settings;
  if (!rateLimits.enabled) return 0;
  return consumeRateLimit(db, counterKey(environment, counter, flow, email), rateLimits[counter]);
}

/** As consumeEmailCodeLimit, and throws 429 rate_limited when over the cap. */
export async function enforceEmailCodeLimit(
  db: Database,
  environment: EnvironmentContext,
  counter: EmailCodeCounter,
  flow: EmailCodeFlow,
  email: string,
): Promise<void> {
  const wait = await consumeEmailCodeLimit(db, environment, counter, flow, email);
  if (wait > 0) throw rateLimited(wait);
}

/**
 * Takes back a guess counted up front that was right. Counting before checking
 * (rather than after a failure) is what keeps concurrent guesses from all slipping
 * under the cap.
 */
export async function refundEmailCodeGuess(db: Database, environment: EnvironmentContext, flow: EmailCodeFlow, email: string): Promise<void> {
  if (!environment.settings.rateLimits.enabled) return;
  await refundRateLimit(db, counterKey(environment, "codeFailuresPerEmail", flow, email));
}
