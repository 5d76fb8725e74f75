import { Text } from "@react-email/components";
import { ActionButton } from "./components/action-button";
import { EmailLayout } from "./components/email-layout";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import { muted, paragraph } from "./components/styles";
import { copyFor, formatDuration } from "./copy";
import type { TemplateProps } from "./types";

/** An invitation to join an organization; the link carries the invitation ticket. */
export default function OrganizationInvitationEmail(props: TemplateProps<"organization_invitation">) {
  const { brand, locale, organizationName, inviterName, roleName, url, expiresInDays } = props;
  const copy = copyFor(locale);
  const t = copy.organization_invitation;
  const invite = { appName: brand.applicationName, organizationName, inviterName };
  return (
    <EmailLayout brand={brand} copy={copy} preview={t.preview(invite)} heading={t.heading(organizationName)}>
      <Text style={paragraph}>{t.intro(invite)}</Text>
      <Text style={paragraph}>{t.role(roleName)}</Text>
      <ActionButton href={url} label={t.button} accent={brand.accentColor} copy={copy} />
      <Text style={paragraph}>{t.expiry(formatDuration(copy, expiresInDays * 1440))}</Text>
      <Text style={muted}>{t.notYou}</Text>
    </EmailLayout>
  );
}

OrganizationInvitationEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  organizationName: "Acme Research",
  inviterName: "Ada Lovelace",
  roleName: "Admin",
  url: `${PREVIEW_ORIGIN}/invitations/accept?token=preview-token`,
  expiresInDays: 7,
} satisfies TemplateProps<"organization_invitation">;
