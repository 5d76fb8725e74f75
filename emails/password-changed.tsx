import { Text } from "@react-email/components";
import { ActionButton } from "./components/action-button";
import { EmailLayout } from "./components/email-layout";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import { paragraph } from "./components/styles";
import { copyFor, formatTimestamp } from "./copy";
import type { TemplateProps } from "./types";

/** Notice after a password change or reset, so an account owner learns of a takeover. */
export default function PasswordChangedEmail({ brand, locale, changedAt, resetPasswordUrl }: TemplateProps<"password_changed">) {
  const copy = copyFor(locale);
  const t = copy.password_changed;
  const app = brand.applicationName;
  return (
    <EmailLayout brand={brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app, formatTimestamp(copy, changedAt))}</Text>
      <Text style={paragraph}>{t.ifYou}</Text>
      <Text style={paragraph}>{t.notYou}</Text>
      <ActionButton href={resetPasswordUrl} label={t.resetPassword} accent={brand.accentColor} copy={copy} />
    </EmailLayout>
  );
}

PasswordChangedEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  changedAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"password_changed">;
