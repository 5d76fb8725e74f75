import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/components/hosted/locale-switcher";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import { DashboardBrand } from "./dashboard-brand";
import hosted from "@/components/hosted/hosted-shell.module.css";

/** The frame of the signed-out dashboard pages (sign-in, set password): one card, centred, as the hosted pages draw it. */
export function AuthShell({ copy, returnTo, children }: { copy: DashboardCopy; returnTo: string; children: ReactNode }) {
  const { t, shared, locale } = copy;
  return (
    <div className={hosted.page} lang={locale}>
      <a href="#main" className={hosted.skip}>
        {t.common.skipToContent}
      </a>
      <header className={hosted.header}>
        <DashboardBrand product={t.productName} section={t.dashboardName} />
        <LocaleSwitcher locale={locale} t={shared} returnTo={returnTo} />
      </header>
      <main id="main" className={hosted.main}>
        {children}
      </main>
    </div>
  );
}
