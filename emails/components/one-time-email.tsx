import { Text } from "@react-email/components";
import type { ReactNode } from "react";
import type { Locale } from "@/lib/email/types";
import { copyFor, formatDuration, type CodeEmailCopy, type EmailCopy } from "../copy";
import type { EmailBrand } from "../types";
import { EmailLayout } from "./email-layout";
import { muted, paragraph } from "./styles";

/**
 * The body every one-time email shares: intro, the code or button (`action`), its
 * expiry, and what to do if it was not you.
 */
export function OneTimeEmail<C extends CodeEmailCopy>(props: {
  brand: EmailBrand;
  locale: Locale;
  expiresInMinutes: number;
  section: (copy: EmailCopy) => C;
  action: (copy: EmailCopy, section: C) => ReactNode;
}) {
  const copy = copyFor(props.locale);
  const t = props.section(copy);
  const app = props.brand.applicationName;
  return (
    <EmailLayout brand={props.brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app)}</Text>
      {props.action(copy, t)}
      <Text style={paragraph}>{t.expiry(formatDuration(copy, props.expiresInMinutes))}</Text>
      <Text style={muted}>{t.notYou}</Text>
    </EmailLayout>
  );
}
