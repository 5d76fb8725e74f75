import { AddressNoticeEmail } from "./components/address-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the primary address that another address was added, so a takeover in progress is noticed. */
export default function EmailAddedEmail(props: TemplateProps<"email_added">) {
  return <AddressNoticeEmail {...props} section={(copy) => copy.email_added} />;
}

EmailAddedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  email: "ada.work@example.com",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"email_added">;
