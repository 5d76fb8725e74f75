import type { Metadata } from "next";
import { ApplicationCard, CreateApplicationCard } from "@/components/dashboard/applications/applications-list";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { Alert } from "@/components/ui/alert";
import { listApplicationsEndpoint } from "@/lib/applications/endpoints";
import { listDashboardEnvironments } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { operatorMay } from "@/lib/operation/caller";
import styles from "@/components/dashboard/dashboard.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.applications.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/applications?env=&cursor= — every application with its environments (keyset pages).
export default async function ApplicationsPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t } = copy;
  const query = await searchParams;
  const environments = await listDashboardEnvironments();
  const environmentId = typeof query.env === "string" && environments.some((env) => env.environmentId === query.env) ? query.env : null;
  const cursor = typeof query.cursor === "string" ? query.cursor : undefined;
  const page = await loadOperation(listApplicationsEndpoint, { query: cursor ? { cursor } : {} }, { environmentId: null });
  const canWrite = operatorMay(operator.role, "write");
  const envQuery = environmentId ? `env=${environmentId}&` : "";
  return (
    <DashboardShell
      copy={copy}
      operator={operator}
      environments={environments}
      currentEnvironmentId={environmentId}
      section="applications"
      returnTo={environmentId ? `/dashboard/applications?env=${environmentId}` : "/dashboard/applications"}
    >
      <header className={styles.pageHeader}>
        <h1>{t.applications.title}</h1>
        <p>{t.applications.lead}</p>
      </header>
      {canWrite ? null : <Alert tone="info">{t.applications.readOnly}</Alert>}
      {page.kind !== "ok" ? (
        <Alert tone="error" role="alert">
          <p>{page.kind === "forbidden" ? t.errors.forbidden : t.errors.notFound}</p>
        </Alert>
      ) : (
        <>
          {page.data?.items.length === 0 && !cursor ? <Alert>{t.applications.empty}</Alert> : null}
          {page.data?.items.map((application) => <ApplicationCard key={application.id} t={t} application={application} canWrite={canWrite} />)}
          {page.data?.nextCursor ? <a href={`/dashboard/applications?${envQuery}cursor=${page.data.nextCursor}`}>{t.applications.more}</a> : null}
        </>
      )}
      {canWrite ? <CreateApplicationCard t={t} /> : null}
    </DashboardShell>
  );
}
