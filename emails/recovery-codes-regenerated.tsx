import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner their recovery codes were replaced: whoever made them holds a way past the second factor. */
export default function RecoveryCodesRegeneratedEmail(props: TemplateProps<"recovery_codes_regenerated">) {
  return <SecurityNoticeEmail {...props} section={(copy) => copy.recovery_codes_regenerated} />;
}

RecoveryCodesRegeneratedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"recovery_codes_regenerated">;
