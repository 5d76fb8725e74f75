import type { Metadata } from "next";
import { LinesCard, PublishableKeyCard, SecretKeysCard, SigningKeysCard } from "@/components/dashboard/api-keys/api-keys-sections";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { Alert } from "@/components/ui/alert";
import { replaceAllowedOriginsAction, replaceFrontendHostsAction } from "@/lib/dashboard/actions/api-keys";
import { chooseDashboardEnvironment } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { getAllowedOriginsEndpoint, getFrontendHostsEndpoint, listSecretKeysEndpoint, listSigningKeysEndpoint } from "@/lib/environments/server-endpoints";
import { operatorMay } from "@/lib/operation/caller";
import styles from "@/components/dashboard/dashboard.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.apiKeys.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/api-keys?env= — the chosen environment's keys, signing keys, hosts and origins.
export default async function ApiKeysPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t, locale } = copy;
  const { environments, environment } = await chooseDashboardEnvironment((await searchParams).env);
  const environmentId = environment?.environmentId ?? null;
  const load = environmentId
    ? await Promise.all([
        loadOperation(listSecretKeysEndpoint, {}, { environmentId }),
        loadOperation(listSigningKeysEndpoint, {}, { environmentId }),
        loadOperation(getFrontendHostsEndpoint, {}, { environmentId }),
        loadOperation(getAllowedOriginsEndpoint, {}, { environmentId }),
      ])
    : null;
  const dateFormat = new Intl.DateTimeFormat(locale === "da" ? "da-DK" : "en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const formatDate = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;
  const canWrite = operatorMay(operator.role, "write");
  const canRevealSecrets = operatorMay(operator.role, "revealSecrets");
  return (
    <DashboardShell
      copy={copy}
      operator={operator}
      environments={environments}
      currentEnvironmentId={environmentId}
      section="apiKeys"
      returnTo={environmentId ? `/dashboard/api-keys?env=${environmentId}` : "/dashboard/api-keys"}
    >
      <header className={styles.pageHeader}>
        <h1>{t.apiKeys.title}</h1>
        {environment ? <p>{`${environment.applicationName} / ${environment.name}`}</p> : null}
      </header>
      {!environment || !environmentId || !load ? (
        <Alert title={t.environments.none}>
          <p>{t.environments.noneBody}</p>
        </Alert>
      ) : load.some((result) => result.kind !== "ok") ? (
        <Alert tone="error" role="alert">
          <p>{load.some((result) => result.kind === "forbidden") ? t.errors.forbidden : t.errors.notFound}</p>
        </Alert>
      ) : (
        <>
          {canWrite ? null : <Alert tone="info">{t.apiKeys.readOnly}</Alert>}
          <PublishableKeyCard t={t} publishableKey={environment.publishableKey} />
          <SecretKeysCard
            t={t}
            environmentId={environmentId}
            canWrite={canWrite}
            canRevealSecrets={canRevealSecrets}
            formatDate={formatDate}
            keys={load[0].kind === "ok" ? (load[0].data?.items ?? []) : []}
          />
          <SigningKeysCard
            t={t}
            environmentId={environmentId}
            canWrite={canWrite}
            canRevealSecrets={canRevealSecrets}
            formatDate={formatDate}
            keys={load[1].kind === "ok" ? (load[1].data?.items ?? []) : []}
          />
          <LinesCard
            title={t.apiKeys.frontendHosts}
            hint={t.apiKeys.frontendHostsHint}
            name="hosts"
            entries={load[2].kind === "ok" ? (load[2].data?.hosts ?? []) : []}
            submit={t.apiKeys.saveHosts}
            action={replaceFrontendHostsAction}
            environmentId={environmentId}
            canWrite={canWrite}
          />
          <LinesCard
            title={t.apiKeys.allowedOrigins}
            hint={t.apiKeys.allowedOriginsHint}
            name="origins"
            entries={load[3].kind === "ok" ? (load[3].data?.origins ?? []) : []}
            submit={t.apiKeys.saveOrigins}
            action={replaceAllowedOriginsAction}
            environmentId={environmentId}
            canWrite={canWrite}
          />
        </>
      )}
    </DashboardShell>
  );
}
