import { Text } from "@react-email/components";
import type { Locale } from "@/lib/email/types";
import { copyFor, formatTimestamp, type AddressNoticeCopy, type EmailCopy } from "../copy";
import type { EmailBrand } from "../types";
import { ActionButton } from "./action-button";
import { EmailLayout } from "./email-layout";
import { paragraph } from "./styles";

/**
 * A security notice about the account's addresses. It reaches the owner at the
 * primary address as it was before the change, so someone who changes it cannot
 * keep the notice from them.
 */
export function AddressNoticeEmail(props: {
  brand: EmailBrand;
  locale: Locale;
  email: string;
  occurredAt: string;
  resetPasswordUrl: string;
  section: (copy: EmailCopy) => AddressNoticeCopy;
}) {
  const copy = copyFor(props.locale);
  const t = props.section(copy);
  const app = props.brand.applicationName;
  return (
    <EmailLayout brand={props.brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app, props.email, formatTimestamp(copy, props.occurredAt))}</Text>
      <Text style={paragraph}>{t.ifYou}</Text>
      <Text style={paragraph}>{t.notYou}</Text>
      <ActionButton href={props.resetPasswordUrl} label={t.resetPassword} accent={props.brand.accentColor} copy={copy} />
    </EmailLayout>
  );
}
