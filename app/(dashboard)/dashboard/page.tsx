import type { Metadata } from "next";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { listDashboardEnvironments } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { countUsersEndpoint } from "@/lib/users/server-endpoints";
import styles from "@/components/dashboard/dashboard.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.home.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard?env= — the chosen environment at a glance (the first environment when none is chosen).
export default async function DashboardHomePage({ searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t, locale } = copy;
  const environments = await listDashboardEnvironments();
  const chosen = (await searchParams).env;
  const environment = environments.find((candidate) => candidate.environmentId === chosen) ?? environments[0] ?? null;
  const users = environment ? await loadOperation(countUsersEndpoint, {}, { environmentId: environment.environmentId }) : null;
  return (
    <DashboardShell
      copy={copy}
      operator={operator}
      environments={environments}
      currentEnvironmentId={environment?.environmentId ?? null}
      section="overview"
      returnTo={environment ? `/dashboard?env=${environment.environmentId}` : "/dashboard"}
    >
      <header className={styles.pageHeader}>
        <h1>{t.home.title}</h1>
        {environment ? <p>{environment.applicationName === environment.name ? environment.name : `${environment.applicationName} / ${environment.name}`}</p> : null}
      </header>
      {!environment ? (
        <Alert title={t.environments.none}>
          <p>{t.environments.noneBody}</p>
        </Alert>
      ) : (
        <>
          {users?.kind === "ok" ? (
            <dl className={styles.stats}>
              <div className={styles.stat}>
                <dt>{t.home.users}</dt>
                <dd>
                  <span className={styles.statValue} data-testid="user-count">
                    {(users.data?.count ?? 0).toLocaleString(locale === "da" ? "da-DK" : "en-US")}
                  </span>
                  <span className={styles.statHint}>{t.home.usersHint}</span>
                </dd>
              </div>
            </dl>
          ) : (
            <Alert tone="error" role="alert">
              <p>{users?.kind === "forbidden" ? t.errors.forbidden : t.errors.notFound}</p>
            </Alert>
          )}
          <Card title={t.home.details}>
            <dl className={styles.details}>
              <dt>{t.home.application}</dt>
              <dd>{environment.applicationName}</dd>
              <dt>{t.home.kind}</dt>
              <dd>
                <Badge tone={environment.kind === "production" ? "accent" : "neutral"}>{t.environments[environment.kind]}</Badge>
              </dd>
              <dt>{t.home.publishableKey}</dt>
              <dd className={styles.code}>{environment.publishableKey}</dd>
              <dt>{t.home.frontendHosts}</dt>
              <dd className={styles.code}>{environment.frontendHosts.length > 0 ? environment.frontendHosts.join(", ") : t.home.none}</dd>
            </dl>
          </Card>
        </>
      )}
    </DashboardShell>
  );
}
