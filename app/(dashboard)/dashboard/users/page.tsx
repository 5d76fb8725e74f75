/*
 * GET /dashboard/users — the users of one environment: a search and one keyset page.
 *
 * URL scheme (all optional but env; a bench requests these pages):
 *   ?env=<environmentId>          the environment (else the first one)
 *   &name=<fragment>              name contains (case-insensitive)
 *   &email=<fragment>             primary email contains (case-insensitive)
 *   &status=any|active|banned|deleted
 *   &after=YYYY-MM-DD             created on or after that day (UTC)
 *   &before=YYYY-MM-DD            created on or before that day (UTC)
 *   &cursor=<uuid>                the previous page's nextCursor ("Next page" links carry it)
 * Each request runs searchUsers once with limit 25 (USER_PAGE_SIZE), newest first:
 * no count of the filtered result, so a page costs the same at a million users (the
 * overview page has the environment's total).
 */
import type { Metadata } from "next";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { CreateUserForm } from "@/components/dashboard/users/create-user-form";
import { UserSearchForm } from "@/components/dashboard/users/user-search-form";
import { UsersTable } from "@/components/dashboard/users/users-table";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { chooseDashboardEnvironment } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { readUserSearch, searchUsersInput, usersHref } from "@/lib/dashboard/users/user-search";
import { AppError } from "@/lib/errors";
import { format } from "@/lib/hosted/i18n/messages";
import { operatorMay } from "@/lib/operation/caller";
import { searchUsersEndpoint } from "@/lib/users/server-endpoints";
import styles from "@/components/dashboard/dashboard.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.users.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The search fields a refusal can name, as the form calls them. */
const SEARCH_FIELDS = ["name", "email", "createdAfter", "createdBefore"];

export default async function UsersPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t, shared, locale } = copy;
  const params = await searchParams;
  const { environments, environment } = await chooseDashboardEnvironment(params.env);
  const search = readUserSearch(params);
  const filtered = Boolean(search.name || search.email || search.after || search.before || search.status !== "any");

  // The operation's schema judges the search: a refusal is shown at its field, never a 500.
  const fieldErrors: Record<string, string> = {};
  let refusal: string | null = null;
  const result = environment
    ? await loadOperation(searchUsersEndpoint, searchUsersInput(search), { environmentId: environment.environmentId }).catch((error: unknown) => {
        if (!(error instanceof AppError) || error.code !== "invalid_request") throw error;
        for (const fieldError of error.fieldErrors ?? []) {
          if (SEARCH_FIELDS.includes(fieldError.field)) fieldErrors[fieldError.field] = shared.errors.invalidField;
          else refusal = format(t.users.search.failed, { detail: error.message });
        }
        if (!error.fieldErrors?.length) refusal = format(t.users.search.failed, { detail: error.message });
        return null;
      })
    : null;

  return (
    <DashboardShell
      copy={copy}
      operator={operator}
      environments={environments}
      currentEnvironmentId={environment?.environmentId ?? null}
      section="users"
      returnTo={environment ? usersHref(environment.environmentId, search) : "/dashboard/users"}
    >
      <header className={styles.pageHeader}>
        <h1>{t.users.title}</h1>
        <p>{t.users.lead}</p>
      </header>
      {!environment ? (
        <Alert title={t.environments.none}>
          <p>{t.environments.noneBody}</p>
        </Alert>
      ) : (
        <>
          <Card title={t.users.search.title}>
            <UserSearchForm t={t} environmentId={environment.environmentId} search={search} errors={fieldErrors} />
          </Card>
          {refusal ? (
            <Alert tone="error" role="alert">
              <p>{refusal}</p>
            </Alert>
          ) : null}
          {result?.kind === "ok" && result.data ? (
            <UsersTable
              t={t}
              locale={locale}
              environmentId={environment.environmentId}
              search={search}
              users={result.data.items}
              nextCursor={result.data.hasMore ? result.data.nextCursor : null}
              filtered={filtered}
            />
          ) : result ? (
            <Alert tone="error" role="alert">
              <p>{result.kind === "forbidden" ? t.errors.forbidden : t.errors.notFound}</p>
            </Alert>
          ) : null}
          {operatorMay(operator.role, "write") ? (
            <Card title={t.users.create.title}>
              <CreateUserForm t={t} environmentId={environment.environmentId} />
            </Card>
          ) : null}
        </>
      )}
    </DashboardShell>
  );
}
