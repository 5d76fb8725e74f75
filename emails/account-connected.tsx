import { IdentityNoticeEmail } from "./components/identity-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner a provider account was connected: it can now sign in without the password. */
export default function AccountConnectedEmail(props: TemplateProps<"account_connected">) {
  return <IdentityNoticeEmail {...props} section={(copy) => copy.account_connected} />;
}

AccountConnectedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  providerName: "GitHub",
  occurredAt: "2026-11-22T16:48:00.000Z",
  accountUrl: `${PREVIEW_ORIGIN}/account`,
} satisfies TemplateProps<"account_connected">;
