import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Notice after a password change or reset, so an account owner learns of a takeover. */
export default function PasswordChangedEmail({ changedAt, ...props }: TemplateProps<"password_changed">) {
  return <SecurityNoticeEmail {...props} occurredAt={changedAt} section={(copy) => copy.password_changed} />;
}

PasswordChangedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  changedAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"password_changed">;
