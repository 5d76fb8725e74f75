import { Text } from "@react-email/components";
import type { Locale } from "@/lib/email/types";
import { copyFor, formatTimestamp, type EmailCopy, type SecurityNoticeCopy } from "../copy";
import type { EmailBrand } from "../types";
import { ActionButton } from "./action-button";
import { EmailLayout } from "./email-layout";
import { paragraph } from "./styles";

/**
 * A security notice about the account's credentials (its password, its second
 * factors): what changed and when, and a way back in if it was not the owner.
 */
export function SecurityNoticeEmail(props: {
  brand: EmailBrand;
  locale: Locale;
  occurredAt: string;
  resetPasswordUrl: string;
  section: (copy: EmailCopy) => SecurityNoticeCopy;
}) {
  const copy = copyFor(props.locale);
  const t = props.section(copy);
  const app = props.brand.applicationName;
  return (
    <EmailLayout brand={props.brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app, formatTimestamp(copy, props.occurredAt))}</Text>
      <Text style={paragraph}>{t.ifYou}</Text>
      <Text style={paragraph}>{t.notYou}</Text>
      <ActionButton href={props.resetPasswordUrl} label={t.resetPassword} accent={props.brand.accentColor} copy={copy} />
    </EmailLayout>
  );
}
