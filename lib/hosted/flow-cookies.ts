import { serialize } from "cookie";
import { cookies, headers } from "next/headers";
import { z } from "zod";
import { CODE_LIFETIME_MINUTES } from "../auth/one-time-codes";
import { cookiePresentedTwice, hostPrefixed } from "../operation/cookie-header";
import { MFA_TOKEN_LIFETIME_MINUTES } from "../mfa/mfa-tokens";
import { secureCookies } from "../sessions/cookies";
import { mfaFlowSchema, type MfaFlow } from "../flows/mfa-flow";
import { hostedRequest } from "./action-request";

/**
 * Between two steps of a flow (sign-up → code, forgot → reset) the pending state
 * lives in a short HttpOnly cookie rather than the URL: the sign-up token is a
 * credential for the pending account, and addresses in URLs end up in logs and
 * Referer headers. Each cookie names its environment, so it is ignored elsewhere.
 * On https each goes by its `__Host-` name (hostPrefixed): a sibling subdomain that
 * planted a lone `gh_mfa` holding its own mfaToken (a held reset of the victim's
 * account, or an enrollment into the attacker's) would otherwise have the victim's
 * factor answer it.
 */
const SIGN_UP_COOKIE = "gh_sign_up";
const RESET_COOKIE = "gh_reset";
const MFA_COOKIE = "gh_mfa";

/** Seconds between two "send a new code" requests; the lib's rate limits still apply on top. */
export const RESEND_COOLDOWN_SECONDS = 30;

const pendingSignUpSchema = z.object({
  environmentId: z.string(),
  token: z.string(),
  email: z.string(),
  /** Unix seconds of the last code email, for the resend cooldown. */
  sentAt: z.number(),
});
export type PendingSignUp = z.output<typeof pendingSignUpSchema>;

const pendingResetSchema = z.object({ environmentId: z.string(), email: z.string() });


/** A flow cookie's name and attributes for this request: Path=/ and no Domain always, so the `__Host-` name is valid on https. */
function cookie(request: Request, name: string, minutes = CODE_LIFETIME_MINUTES) {
  const secure = secureCookies(request);
  return { name: hostPrefixed(name, secure), httpOnly: true, sameSite: "lax" as const, path: "/", secure, maxAge: minutes * 60 };
}

/**
 * Readers and removers have no request handed to them: they rebuild the page's or
 * action's own from headers(), as hosted-context does for the writers, so both agree
 * on whether it is https and so on the cookie's name.
 */
async function read<T>(base: string, schema: z.ZodType<T>): Promise<T | null> {
  const { name } = cookie(await hostedRequest(null), base);
  // A flow cookie planted beside the real one (lib/http/cookie-header.ts) would hand
  // this browser someone else's pending sign-in, reset or sign-up: neither counts.
  // The value itself comes from cookies(), which also shows what this action just set.
  if (cookiePresentedTwice((await headers()).get("cookie"), name)) return null;
  const raw = (await cookies()).get(name)?.value;
  if (!raw) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function write(request: Request, base: string, value: unknown, minutes?: number): Promise<void> {
  (await cookies()).set({ ...cookie(request, base, minutes), value: JSON.stringify(value) });
}

/** Ends a flow cookie, with the attributes it was set with (a `__Host-` one is only removed by a Secure, Path=/ Set-Cookie). */
async function forget(base: string): Promise<void> {
  const { maxAge: _, ...attributes } = cookie(await hostedRequest(null), base);
  (await cookies()).delete(attributes);
}

export async function rememberSignUp(request: Request, pending: PendingSignUp): Promise<void> {
  await write(request, SIGN_UP_COOKIE, pending);
}

export async function pendingSignUp(environmentId: string): Promise<PendingSignUp | null> {
  const pending = await read(SIGN_UP_COOKIE, pendingSignUpSchema);
  return pending?.environmentId === environmentId ? pending : null;
}

export async function forgetSignUp(): Promise<void> {
  await forget(SIGN_UP_COOKIE);
}

export async function rememberResetEmail(request: Request, environmentId: string, email: string): Promise<void> {
  await write(request, RESET_COOKIE, { environmentId, email });
}

export async function pendingResetEmail(environmentId: string): Promise<string | null> {
  const pending = await read(RESET_COOKIE, pendingResetSchema);
  return pending?.environmentId === environmentId ? pending.email : null;
}

export async function forgetResetEmail(): Promise<void> {
  await forget(RESET_COOKIE);
}

export async function rememberMfaFlow(request: Request, flow: MfaFlow): Promise<void> {
  await write(request, MFA_COOKIE, flow, MFA_TOKEN_LIFETIME_MINUTES);
}

/**
 * The same cookie as a Set-Cookie value, for a sign-in that ends in a route
 * handler's redirect rather than a server action (GET /_svc/auth/session/establish):
 * the route kit writes it (ResponseEffects), with the attributes decided here.
 */
export function mfaFlowSetCookie(request: Request, flow: MfaFlow): string {
  const { name, ...attributes } = cookie(request, MFA_COOKIE, MFA_TOKEN_LIFETIME_MINUTES);
  return serialize(name, JSON.stringify(flow), attributes);
}

/** The MFA step this browser is in the middle of, in whichever environment (check `environmentId` before use). */
export async function currentMfaFlow(): Promise<MfaFlow | null> {
  return read(MFA_COOKIE, mfaFlowSchema);
}

/** This environment's MFA step of the given kind, if the browser is in the middle of one. */
export async function pendingMfaFlow<K extends MfaFlow["kind"]>(environmentId: string, kind: K): Promise<Extract<MfaFlow, { kind: K }> | null> {
  const flow = await currentMfaFlow();
  return flow?.environmentId === environmentId && flow.kind === kind ? (flow as Extract<MfaFlow, { kind: K }>) : null;
}

export async function forgetMfaFlow(): Promise<void> {
  await forget(MFA_COOKIE);
}

/** Seconds until another code may be requested (0 when allowed now). */
export function resendCooldown(pending: PendingSignUp, now = Date.now()): number {
  return Math.max(0, pending.sentAt + RESEND_COOLDOWN_SECONDS - Math.floor(now / 1000));
}
