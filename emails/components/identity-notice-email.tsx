import { Text } from "@react-email/components";
import type { IdentityNotice, Locale } from "@/lib/email/types";
import { copyFor, formatTimestamp, type EmailCopy, type IdentityNoticeCopy } from "../copy";
import type { EmailBrand } from "../types";
import { ActionButton } from "./action-button";
import { EmailLayout } from "./email-layout";
import { paragraph } from "./styles";

/**
 * A notice about the provider accounts that can sign in to the account: which
 * provider, when, and the account page to review them. A provider account signs in
 * without the password, so one connected by someone in the account would outlive
 * a password reset: the owner must hear of it.
 */
export function IdentityNoticeEmail(props: IdentityNotice & { brand: EmailBrand; locale: Locale; section: (copy: EmailCopy) => IdentityNoticeCopy }) {
  const copy = copyFor(props.locale);
  const t = props.section(copy);
  const app = props.brand.applicationName;
  return (
    <EmailLayout brand={props.brand} copy={copy} preview={t.preview(app, props.providerName)} heading={t.heading(props.providerName)}>
      <Text style={paragraph}>{t.intro(app, props.providerName, formatTimestamp(copy, props.occurredAt))}</Text>
      <Text style={paragraph}>{t.ifYou}</Text>
      <Text style={paragraph}>{t.notYou}</Text>
      <ActionButton href={props.accountUrl} label={t.review} accent={props.brand.accentColor} copy={copy} />
    </EmailLayout>
  );
}
