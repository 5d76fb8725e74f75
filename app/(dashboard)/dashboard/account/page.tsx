import type { Metadata } from "next";
import { AuthenticatorSection, PasskeysSection } from "@/components/dashboard/account-security";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { operatorSignInAgainAction } from "@/lib/dashboard/actions/sign-out";
import { listDashboardEnvironments } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperatorSecurity } from "@/lib/dashboard/operator-account";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { format } from "@/lib/hosted/i18n/messages";
import styles from "@/components/dashboard/dashboard.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.account.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/account?env= — the operator's own second factors: status, authenticator app, recovery codes, passkeys.
export default async function DashboardAccountPage({ searchParams }: Props) {
  const security = await loadOperatorSecurity();
  const copy = await dashboardCopy();
  const { t, locale } = copy;
  const environments = await listDashboardEnvironments();
  const chosen = (await searchParams).env;
  const environment = environments.find((candidate) => candidate.environmentId === chosen) ?? environments[0] ?? null;
  const { status } = security;
  return (
    <DashboardShell
      copy={copy}
      operator={security.operator}
      environments={environments}
      currentEnvironmentId={environment?.environmentId ?? null}
      section="account"
      returnTo={environment ? `/dashboard/account?env=${environment.environmentId}` : "/dashboard/account"}
    >
      <header className={styles.pageHeader}>
        <h1>{t.account.title}</h1>
        <p>{format(t.account.lead, { email: security.operator.email })}</p>
      </header>
      <Card title={t.account.statusTitle} lead={<p>{status.enabled ? t.account.statusOn : t.account.statusOff}</p>} id="status">
        <p className={styles.badges} data-testid="factor-status">
          <Badge tone={status.enabled ? "success" : "neutral"}>{status.enabled ? t.account.on : t.account.off}</Badge>
          {status.totp ? <Badge>{t.account.statusTotp}</Badge> : null}
          {status.passkeys > 0 ? <Badge>{format(t.account.statusPasskeys, { count: status.passkeys })}</Badge> : null}
          {status.totp ? <Badge>{format(t.account.statusRecoveryCodes, { count: status.recoveryCodesLeft })}</Badge> : null}
        </p>
      </Card>
      {security.recentSignIn ? null : (
        <Alert title={t.account.reauthTitle}>
          <p>{format(t.account.reauthBody, { minutes: security.reverificationMinutes })}</p>
          <form action={operatorSignInAgainAction} className={styles.inlineForm}>
            <Button type="submit" variant="secondary">
              {t.account.reauthButton}
            </Button>
          </form>
        </Alert>
      )}
      <AuthenticatorSection copy={copy} security={security} />
      <PasskeysSection copy={copy} security={security} dates={dateTimeFormat(locale)} />
    </DashboardShell>
  );
}
