import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { safeEqual } from "../crypto/tokens";

type CaptchaSettings = EnvironmentContext["settings"]["signUp"]["captcha"];

const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Verifiers by provider. `test` is the double for tests and staging, driven by settings. */
const VERIFIERS: Record<CaptchaSettings["provider"], (settings: CaptchaSettings, token: string, ip: string | null) => Promise<boolean>> = {
  test: async (settings, token) => Boolean(settings.testPassToken) && safeEqual(token, settings.testPassToken ?? ""),
  turnstile: async (_settings, token, ip) => {
    const secret = process.env.TURNSTILE_SECRET_KEY;
    if (!secret) throw new AppError("invalid_request", "CAPTCHA is enabled but TURNSTILE_SECRET_KEY is not configured.");
    const response = await fetch(TURNSTILE_VERIFY_URL, {
      method: "POST",
      body: new URLSearchParams({ secret, response: token, ...(ip ? { remoteip: ip } : {}) }),
      signal: AbortSignal.timeout(5000),
    }).catch(() => null);
    if (!response?.ok) return false;
    return ((await response.json()) as { success?: boolean }).success === true;
  },
};

/** Throws 400 when CAPTCHA is enabled and the token is missing or fails verification. */
export async function assertCaptchaPassed(environment: EnvironmentContext, token: string | undefined, ip: string | null): Promise<void> {
  const settings = environment.settings.signUp.captcha;
  if (!settings.enabled) return;
  if (!token) throw new AppError("invalid_request", "captchaToken: is required while CAPTCHA is enabled.", {
    fieldErrors: [{ field: "captchaToken", code: "required", message: "is required" }],
  });
  if (!(await VERIFIERS[settings.provider](settings, token, ip))) {
    throw new AppError("invalid_request", "captchaToken: did not pass verification.", {
      fieldErrors: [{ field: "captchaToken", code: "captcha_failed", message: "did not pass verification" }],
    });
  }
}
