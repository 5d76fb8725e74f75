import { cookies, headers } from "next/headers";
import { z } from "zod";
import { publicUrl } from "../config/runtime";
import { MFA_TOKEN_LIFETIME_MINUTES } from "../mfa/mfa-tokens";
import { cookiePresentedTwice } from "../operation/cookie-header";

/** The second step of an operator's sign-in: its page, where the pending cookie leads. */
export const SECOND_STEP_PATH = "/dashboard/sign-in/verify";

// Not a name that starts with the session cookie's (gh_dashboard): next-auth reads every such cookie as a chunk of its session.
const COOKIE = "gh_operator_mfa";

/**
 * A sign-in whose first factor (the password, staff SSO) is proven and which owes
 * the operator's second factor: the mfaToken (a credential for the half-done
 * sign-in), the factors to offer, and the dashboard page to go on to. It lives in a
 * short HttpOnly cookie on /dashboard, never in a URL (where logs, history and
 * Referer headers would keep it), and no longer than the token itself.
 */
const pendingSchema = z.object({
  token: z.string().min(1).max(512),
  factors: z.array(z.enum(["totp", "recovery_code", "passkey"])),
  next: z.string().max(200),
});
export type PendingSecondStep = z.output<typeof pendingSchema>;

/** Secure, with the `__Secure-` name, when the dashboard is served over https (PUBLIC_URL), as its session cookie is. */
function attributes() {
  const secure = publicUrl().startsWith("https:");
  return { name: secure ? `__Secure-${COOKIE}` : COOKIE, httpOnly: true, sameSite: "lax" as const, path: "/dashboard", secure };
}

export async function rememberSecondStep(pending: PendingSecondStep): Promise<void> {
  (await cookies()).set({ ...attributes(), value: JSON.stringify(pending), maxAge: MFA_TOKEN_LIFETIME_MINUTES * 60 });
}

/**
 * The second step this browser is in the middle of, or null. Two cookies of the
 * name (one planted beside ours by a sibling subdomain) count as none: which one is
 * ours is not for the order of the Cookie header to say.
 */
export async function pendingSecondStep(): Promise<PendingSecondStep | null> {
  const { name } = attributes();
  if (cookiePresentedTwice((await headers()).get("cookie"), name)) return null;
  const raw = (await cookies()).get(name)?.value;
  if (!raw) return null;
  try {
    const parsed = pendingSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Ends the pending step (the session exists, or the sign-in is abandoned), with the attributes it was set with. */
export async function forgetSecondStep(): Promise<void> {
  (await cookies()).set({ ...attributes(), value: "", maxAge: 0 });
}
