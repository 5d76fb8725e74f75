import { cookies, headers } from "next/headers";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { NEUTRAL_BRANDING } from "@/lib/hosted/branding";
import { messagesFor } from "@/lib/hosted/i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "@/lib/hosted/locale";

// No environment matches this Host or pk: a 404 that says so, in the visitor's language.
export default async function HostedNotFound() {
  const locale = pickLocale({
    chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
    userLocale: null,
    acceptLanguage: (await headers()).get("accept-language"),
    defaultLocale: "en",
  });
  const t = messagesFor(locale);
  return (
    <HostedShell context={{ branding: NEUTRAL_BRANDING, locale, t }}>
      <Card level={1} title={t.notFound.title} lead={<p>{t.notFound.lead}</p>}>
        <Alert>{t.notFound.devHint}</Alert>
      </Card>
    </HostedShell>
  );
}
