import { Text } from "@react-email/components";
import { ActionButton } from "./components/action-button";
import { EmailLayout } from "./components/email-layout";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import { muted, paragraph } from "./components/styles";
import { copyFor } from "./copy";
import type { TemplateProps } from "./types";

/**
 * Sent instead of a sign-up code when the address already has an account, so the
 * sign-up form answers the same either way and cannot be used to probe for accounts.
 */
export default function AccountExistsEmail({ brand, locale, signInUrl, resetPasswordUrl }: TemplateProps<"account_exists">) {
  const copy = copyFor(locale);
  const t = copy.account_exists;
  const app = brand.applicationName;
  return (
    <EmailLayout brand={brand} copy={copy} preview={t.preview(app)} heading={t.heading}>
      <Text style={paragraph}>{t.intro(app)}</Text>
      <ActionButton href={signInUrl} label={t.signIn} accent={brand.accentColor} copy={copy} />
      <Text style={paragraph}>{t.forgotPassword}</Text>
      <ActionButton href={resetPasswordUrl} label={t.resetPassword} accent={brand.accentColor} copy={copy} />
      <Text style={muted}>{t.notYou}</Text>
    </EmailLayout>
  );
}

AccountExistsEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  signInUrl: `${PREVIEW_ORIGIN}/sign-in`,
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"account_exists">;
