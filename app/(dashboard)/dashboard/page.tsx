import type { Metadata } from "next";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { EventList } from "@/components/dashboard/events/event-list";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { chooseDashboardEnvironment } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { getActivitySummaryEndpoint, listAuditEventsEndpoint } from "@/lib/audit/server-endpoints";
import styles from "@/components/dashboard/dashboard.module.css";
import home from "@/components/dashboard/home.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.home.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

/** How many of the newest audit events the overview shows. */
const LATEST_EVENTS = 10;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard?env= — the chosen environment at a glance (the first environment when none is chosen).
export default async function DashboardHomePage({ searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t, locale } = copy;
  const { environments, environment } = await chooseDashboardEnvironment((await searchParams).env);
  const [activity, latest] = environment
    ? await Promise.all([
        loadOperation(getActivitySummaryEndpoint, {}, { environmentId: environment.environmentId }),
        loadOperation(listAuditEventsEndpoint, { query: { limit: String(LATEST_EVENTS) } }, { environmentId: environment.environmentId }),
      ])
    : [null, null];
  const number = (value: number) => value.toLocaleString(locale === "da" ? "da-DK" : "en-US");
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
          {activity?.kind === "ok" && activity.data ? (
            <section aria-labelledby="activity-heading" className={home.activity}>
              <h2 id="activity-heading" className={home.sectionTitle}>
                {t.home.activity}
              </h2>
              <dl className={styles.stats}>
                <div className={styles.stat}>
                  <dt>{t.home.users}</dt>
                  <dd>
                    <span className={styles.statValue} data-testid="user-count">
                      {number(activity.data.users)}
                    </span>
                    <span className={styles.statHint}>{t.home.usersHint}</span>
                  </dd>
                </div>
                {(
                  [
                    ["signUps", t.home.signUps, activity.data.signUps],
                    ["signIns", t.home.signIns, activity.data.signIns],
                  ] as const
                ).map(([key, label, counts]) => (
                  <div className={styles.stat} key={key}>
                    <dt>{label}</dt>
                    <dd>
                      <span className={styles.statValue} data-testid={`${key}-today`}>
                        {number(counts.today)}
                      </span>
                      <span className={styles.statHint}>{t.home.today}</span>
                      <span className={styles.statHint}>
                        {t.home.last7Days}: <strong data-testid={`${key}-last7days`}>{number(counts.last7Days)}</strong>
                      </span>
                    </dd>
                  </div>
                ))}
              </dl>
              <p className={styles.muted}>{t.home.daysHint}</p>
            </section>
          ) : (
            <Alert tone="error" role="alert">
              <p>{activity?.kind === "forbidden" ? t.errors.forbidden : t.errors.notFound}</p>
            </Alert>
          )}
          {latest?.kind === "ok" && latest.data ? (
            <Card title={t.home.recentEvents} lead={<p className={styles.muted}>{t.home.recentEventsHint}</p>}>
              <EventList events={latest.data.items} copy={copy} label={t.home.recentEvents} />
            </Card>
          ) : null}
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
