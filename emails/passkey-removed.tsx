import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner a passkey was removed, so a takeover that strips a factor is noticed. */
export default function PasskeyRemovedEmail(props: TemplateProps<"passkey_removed">) {
  return <SecurityNoticeEmail {...props} section={(copy) => copy.passkey_removed} />;
}

PasskeyRemovedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"passkey_removed">;
