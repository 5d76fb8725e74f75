import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/components/hosted/locale-switcher";
import type { DashboardEnvironment } from "@/lib/dashboard/environments";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import type { OperatorIdentity } from "@/lib/operation/caller";
import { ACCOUNT_PATH } from "@/lib/dashboard/operator-session";
import { DashboardBrand } from "./dashboard-brand";
import { EnvironmentSwitcher } from "./environment-switcher";
import { SecondFactorBanner } from "./second-factor-banner";
import { SignOutForm } from "./sign-out-form";
import hosted from "@/components/hosted/hosted-shell.module.css";
import styles from "./dashboard.module.css";

/** The dashboard's sections, in the order the navigation lists them, and where each lives. */
const SECTIONS = [
  { key: "overview", path: "/dashboard" },
  { key: "users", path: "/dashboard/users" },
  { key: "apiKeys", path: "/dashboard/api-keys" },
  { key: "applications", path: "/dashboard/applications" },
] as const;

export type DashboardSection = (typeof SECTIONS)[number]["key"];

interface DashboardShellProps {
  copy: DashboardCopy;
  operator: OperatorIdentity;
  environments: DashboardEnvironment[];
  currentEnvironmentId: string | null;
  /** The navigation entry this page belongs to (marked aria-current), or the operator's own account page. */
  section: DashboardSection | "account";
  /** This page's path and query, so the language switcher comes back to it. */
  returnTo: string;
  children: ReactNode;
}

/**
 * The frame of every signed-in dashboard page: a left column with the environment
 * switcher, the navigation and who is signed in (with sign-out); the page beside it.
 * Below 48rem the column becomes a header above the page.
 */
export function DashboardShell({ copy, operator, environments, currentEnvironmentId, section, returnTo, children }: DashboardShellProps) {
  const { t, shared, locale } = copy;
  const query = currentEnvironmentId ? `?env=${currentEnvironmentId}` : "";
  return (
    <div className={styles.shell} lang={locale}>
      <a href="#main" className={hosted.skip}>
        {t.common.skipToContent}
      </a>
      <aside className={styles.sidebar}>
        <DashboardBrand product={t.productName} section={t.dashboardName} />
        <EnvironmentSwitcher t={t} environments={environments} current={currentEnvironmentId} />
        <nav aria-label={t.common.mainNavigation} className={styles.nav}>
          <ul>
            {SECTIONS.map((entry) => (
              <li key={entry.key}>
                <a href={`${entry.path}${query}`} aria-current={entry.key === section ? "page" : undefined} className={styles.navLink}>
                  {t.nav[entry.key]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.account}>
          <p className={styles.accountLine}>
            <span className={styles.muted}>{t.common.signedInAs}</span>
            <span className={styles.accountEmail}>{operator.email}</span>
            <span className={styles.role}>{t.roles[operator.role]}</span>
          </p>
          <a href={ACCOUNT_PATH} className={styles.navLink} aria-current={section === "account" ? "page" : undefined}>
            {t.common.accountSecurity}
          </a>
          <SignOutForm label={t.common.signOut} />
          <LocaleSwitcher locale={locale} t={shared} returnTo={returnTo} />
        </div>
      </aside>
      <main id="main" className={styles.main}>
        <SecondFactorBanner t={t} operator={operator} />
        {children}
      </main>
    </div>
  );
}
