"use client";

import { useSyncExternalStore } from "react";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { NEUTRAL_BRANDING } from "@/lib/hosted/branding";
import { isLocale, messagesFor } from "@/lib/hosted/i18n/messages";

const noSubscription = () => () => {};

/**
 * A hosted page that failed to render, typically because the database stayed
 * unreachable through the read's retry (lib/hosted/hosted-context.ts): a short page
 * in the visitor's language with a way to try again, never a stack or a blank page.
 * The language is the root layout's `<html lang>`, which a failed page cannot change.
 */
export default function HostedError() {
  const lang = useSyncExternalStore(noSubscription, () => document.documentElement.lang, () => "en");
  const locale = isLocale(lang) ? lang : "en";
  const t = messagesFor(locale);
  return (
    <HostedShell context={{ branding: NEUTRAL_BRANDING, locale, t }}>
      <Card level={1} title={t.pageError.title} lead={<p>{t.pageError.lead}</p>}>
        <Button block onClick={() => window.location.reload()}>
          {t.pageError.retry}
        </Button>
      </Card>
    </HostedShell>
  );
}
