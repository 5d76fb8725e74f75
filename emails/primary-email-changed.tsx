import { AddressNoticeEmail } from "./components/address-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Sent to the old and the new primary address when the primary one changes. */
export default function PrimaryEmailChangedEmail(props: TemplateProps<"primary_email_changed">) {
  return <AddressNoticeEmail {...props} section={(copy) => copy.primary_email_changed} />;
}

PrimaryEmailChangedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  email: "ada.work@example.com",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"primary_email_changed">;
