import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner two-step verification was turned on, so a takeover that adds an attacker's authenticator app is noticed. */
export default function MfaEnabledEmail(props: TemplateProps<"mfa_enabled">) {
  return <SecurityNoticeEmail {...props} section={(copy) => copy.mfa_enabled} />;
}

MfaEnabledEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"mfa_enabled">;
