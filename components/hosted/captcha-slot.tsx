import Script from "next/script";
import type { EnvironmentSettings } from "@/lib/environments/settings";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { TextField } from "@/components/ui/text-field";

const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js";

/**
 * The CAPTCHA widget's place in the sign-up form, shown only when the environment
 * enables CAPTCHA. Turnstile's widget (the provider's own script, loaded only
 * then) posts `cf-turnstile-response`; the `test` provider, a double for tests and
 * staging, takes its answer in a plain field.
 */
export function CaptchaSlot({ captcha, t }: { captcha: EnvironmentSettings["signUp"]["captcha"]; t: Messages }) {
  if (!captcha.enabled) return null;
  if (captcha.provider === "test") {
    return <TextField name="captchaToken" label={t.fields.captcha} hint={t.signUp.captchaHint} autoComplete="off" required />;
  }
  return (
    <div>
      <div className="cf-turnstile" data-sitekey={captcha.siteKey ?? ""} data-language="auto" />
      <Script src={TURNSTILE_SCRIPT} strategy="afterInteractive" />
    </div>
  );
}
