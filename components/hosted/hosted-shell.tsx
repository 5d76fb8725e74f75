import type { CSSProperties, ReactNode } from "react";
import type { HostedContext } from "@/lib/hosted/hosted-context";
import { BrandHeader } from "./brand-header";
import { ImpersonationBanner } from "./impersonation-banner";
import { LocaleSwitcher } from "./locale-switcher";
import styles from "./hosted-shell.module.css";

interface HostedShellProps {
  /** A page's context; with its session and links, the impersonation banner shows whenever the session is one. */
  context: Pick<HostedContext, "branding" | "locale" | "t"> & Partial<Pick<HostedContext, "session" | "links">>;
  /** This page's path and query, so the language switcher comes back to it (no switcher without one). */
  returnTo?: string;
  /** The account page uses a wider column than the single-card auth pages. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * The frame of every hosted page: the environment's name, logo and accent colour,
 * the language switcher, landmarks (header, main, footer) for assistive technology,
 * and during an impersonation the banner that says so, with its "End".
 */
export function HostedShell({ context, returnTo, wide, children }: HostedShellProps) {
  const { branding, locale, t } = context;
  const theme = { "--accent": branding.accent, "--on-accent": branding.onAccent, "--link": branding.link } as CSSProperties;
  return (
    <div className={styles.page} lang={locale} style={theme}>
      <a href="#main" className={styles.skip}>
        {t.common.skipToContent}
      </a>
      {/* The form names the environment as the page does: pk where the host does not. */}
      <ImpersonationBanner session={context.session ?? null} flow={{ publishableKey: context.links?.publishableKey ?? null, redirectUrl: null }} t={t} />
      <header className={`${styles.header} ${wide ? styles.wide : ""}`}>
        <BrandHeader branding={branding} />
        {returnTo ? <LocaleSwitcher locale={locale} t={t} returnTo={returnTo} /> : null}
      </header>
      <main id="main" className={`${styles.main} ${wide ? styles.wide : ""}`}>
        {children}
      </main>
      <footer className={styles.footer}>{t.common.poweredBy}</footer>
    </div>
  );
}
