import { LinkEmail } from "./components/link-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** The link that verifies an email address added to an existing account. */
export default function EmailVerificationLinkEmail(props: TemplateProps<"email_verification_link">) {
  return <LinkEmail {...props} section={(copy) => copy.email_verification_link} />;
}

EmailVerificationLinkEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  url: `${PREVIEW_ORIGIN}/_svc/users/me/email-addresses/verify?token=preview-token`,
  expiresInMinutes: 1440,
} satisfies TemplateProps<"email_verification_link">;
