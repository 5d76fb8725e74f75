import type { Metadata } from "next";
import { ApplicationCard, CreateApplicationCard } from "@/components/dashboard/applications/applications-list";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { Alert } from "@/components/ui/alert";
import { TextLink } from "@/components/ui/text-link";
import { listApplicationsEndpoint } from "@/lib/applications/endpoints";
import { listDashboardEnvironments } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { AppError } from "@/lib/errors";
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
  // A cursor that is not one of this list's (a hand-edited link, or an application deleted
  // since) is 400 invalid_request from the operation: a stale link, said in place with the
  // first page's link, never a 500.
  const page = await loadOperation(listApplicationsEndpoint, { query: cursor ? { cursor } : {} }, { environmentId: null }).catch((error: unknown) => {
    if (cursor && error instanceof AppError && error.code === "invalid_request") return null;
    throw error;
  });
  const canWrite = operatorMay(operator.role, "write");
  const envQuery = environmentId ? `env=${environmentId}&` : "";
  const firstPage = environmentId ? `/dashboard/applications?env=${environmentId}` : "/dashboard/applications";
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
      {page === null ? (
        <Alert tone="error" role="alert">
          <p>{t.applications.staleCursor}</p>
          <p>
            <TextLink href={firstPage}>{t.applications.firstPage}</TextLink>
          </p>
        </Alert>
      ) : page.kind !== "ok" ? (
        <Alert tone="error" role="alert">
          <p>{page.kind === "forbidden" ? t.errors.forbidden : t.errors.notFound}</p>
        </Alert>
      ) : (
        <>
          {page.data?.items.length === 0 && !cursor ? <Alert>{t.applications.empty}</Alert> : null}
          {page.data?.items.map((application) => <ApplicationCard key={application.id} t={t} application={application} canWrite={canWrite} />)}
          {page.data?.nextCursor ? <a href={`/dashboard/applications?${envQuery}cursor=${page.data.nextCursor}`}>{t.applications.more}</a> : null}
          {cursor ? <TextLink href={firstPage}>{t.applications.firstPage}</TextLink> : null}
        </>
      )}
      {canWrite ? <CreateApplicationCard t={t} /> : null}
    </DashboardShell>
  );
}
