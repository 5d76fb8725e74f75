import { LinkEmail } from "./components/link-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** The one-time link that confirms an account deletion: deletion needs proof of the mailbox too. */
export default function AccountDeletionLinkEmail(props: TemplateProps<"account_deletion_link">) {
  return <LinkEmail {...props} section={(copy) => copy.account_deletion_link} />;
}

AccountDeletionLinkEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  url: `${PREVIEW_ORIGIN}/account/delete/confirm?token=preview-token`,
  expiresInMinutes: 60,
} satisfies TemplateProps<"account_deletion_link">;
