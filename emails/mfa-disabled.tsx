import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner two-step verification was turned off, so a takeover that strips it is noticed. */
export default function MfaDisabledEmail(props: TemplateProps<"mfa_disabled">) {
  return <SecurityNoticeEmail {...props} section={(copy) => copy.mfa_disabled} />;
}

MfaDisabledEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"mfa_disabled">;
