import { Text } from "@react-email/components";
import { ActionButton } from "./components/action-button";
import { EmailLayout } from "./components/email-layout";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import { paragraph } from "./components/styles";
import { copyFor, formatTimestamp } from "./copy";
import type { TemplateProps } from "./types";

/**
 * Tells the primary address that a passkey was added: a passkey signs in without the
 * password, so one planted by someone in the account would outlive a password reset.
 */
export default function PasskeyAddedEmail({ brand, locale, passkeyName, occurredAt, accountUrl }: TemplateProps<"passkey_added">) {
  const copy = copyFor(locale);
  const t = copy.passkey_added;
  const app = brand.applicationName;
  return (
    <EmailLayout brand={brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app, passkeyName, formatTimestamp(copy, occurredAt))}</Text>
      <Text style={paragraph}>{t.ifYou}</Text>
      <Text style={paragraph}>{t.notYou}</Text>
      <ActionButton href={accountUrl} label={t.review} accent={brand.accentColor} copy={copy} />
    </EmailLayout>
  );
}

PasskeyAddedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  passkeyName: "MacBook Touch ID",
  occurredAt: "2026-11-22T16:48:00.000Z",
  accountUrl: `${PREVIEW_ORIGIN}/account`,
} satisfies TemplateProps<"passkey_added">;
