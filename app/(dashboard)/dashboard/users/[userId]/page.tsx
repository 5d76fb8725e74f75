import type { Metadata } from "next";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { EventList } from "@/components/dashboard/events/event-list";
import { ImpersonateForm } from "@/components/dashboard/users/impersonate-form";
import { MetadataEditor } from "@/components/dashboard/users/metadata-editor";
import {
  BanSection,
  DeleteSection,
  EmailsSection,
  FactorsSection,
  IdentitiesSection,
  OrganizationsSection,
  ProfileSection,
  RecentEventsSlot,
  SessionsSection,
  type UserSectionProps,
} from "@/components/dashboard/users/user-sections";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { chooseDashboardEnvironment } from "@/lib/dashboard/environments";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { requireOperator } from "@/lib/dashboard/operator-session";
import { editorText } from "@/lib/dashboard/users/metadata-patch";
import { userHref, usersHref } from "@/lib/dashboard/users/user-search";
import { listAuditEventsEndpoint } from "@/lib/audit/server-endpoints";
import { AppError } from "@/lib/errors";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { operatorMay } from "@/lib/operation/caller";
import { listUserSessionsEndpoint } from "@/lib/sessions/server-endpoints";
import { METADATA_BAGS, METADATA_LIMITS } from "@/lib/users/metadata";
import { getUserEndpoint } from "@/lib/users/server-endpoints";
import dashboard from "@/components/dashboard/dashboard.module.css";
import styles from "@/components/dashboard/users/users.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.users.title} · ${t.dashboardName} · Gatehouse`, robots: { index: false } };
}

type Props = {
  params: Promise<{ userId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The user's newest audit events the page shows (the audit log pages the rest). */
const RECENT_EVENTS = "10";

/** Sessions the page lists: the newest page of them (the Server API pages the rest). */
const SESSION_PAGE = "20";

/** A read the page makes; a malformed id in the URL reads as "no such user", never a 500. */
function notFoundOnBadInput(error: unknown): null {
  if (error instanceof AppError && error.code === "invalid_request") return null;
  throw error;
}

// GET /dashboard/users/{userId}?env= — one user: profile, addresses, metadata, sessions, accounts, factors, organizations, and what may be done to them.
export default async function UserPage({ params, searchParams }: Props) {
  const operator = await requireOperator();
  const copy = await dashboardCopy();
  const { t, locale } = copy;
  const { userId } = await params;
  const search = await searchParams;
  const { environments, environment } = await chooseDashboardEnvironment(search.env);
  const environmentId = environment?.environmentId ?? "";
  const loaded = environment ? await loadOperation(getUserEndpoint, { params: { userId } }, { environmentId }).catch(notFoundOnBadInput) : null;
  const user = loaded?.kind === "ok" ? (loaded.data ?? null) : null;
  const sessions = user ? await loadOperation(listUserSessionsEndpoint, { params: { userId: user.id }, query: { limit: SESSION_PAGE } }, { environmentId }) : null;
  const events = user ? await loadOperation(listAuditEventsEndpoint, { query: { userId: user.id, limit: RECENT_EVENTS } }, { environmentId }) : null;
  const canWrite = operatorMay(operator.role, "write");
  const when = dateTimeFormat(locale);
  const section: UserSectionProps | null = user ? { t, locale, environmentId, user, canWrite, when } : null;
  const title = user ? (user.name ?? user.email ?? user.id) : t.users.title;

  return (
    <DashboardShell
      copy={copy}
      operator={operator}
      environments={environments}
      currentEnvironmentId={environment?.environmentId ?? null}
      section="users"
      returnTo={environment ? userHref(environmentId, userId) : "/dashboard/users"}
    >
      <nav aria-label={t.users.breadcrumbs} className={styles.breadcrumbs}>
        <ol>
          <li>
            <TextLink href={environment ? usersHref(environmentId) : "/dashboard/users"}>{t.users.title}</TextLink>
          </li>
          <li aria-current="page">{title}</li>
        </ol>
      </nav>
      <header className={dashboard.pageHeader}>
        <h1>{title}</h1>
        {user?.email && user.name ? <p>{user.email}</p> : null}
      </header>
      {!section || !user ? (
        <Alert tone="error" role="alert">
          <p>{loaded?.kind === "forbidden" ? t.errors.forbidden : environment ? t.users.notFound : t.environments.none}</p>
        </Alert>
      ) : (
        <>
          {!canWrite ? (
            <Alert>
              <p>{t.users.readOnly}</p>
            </Alert>
          ) : null}
          <div className={styles.grid}>
            <ProfileSection {...section} />
            <div className={styles.slot}>
              <EmailsSection {...section} />
              <FactorsSection {...section} />
              <OrganizationsSection {...section} />
            </div>
          </div>
          <Card title={t.users.metadata.title} lead={t.users.metadata.lead}>
            <div className={styles.grid}>
              {METADATA_BAGS.map((bag) => (
                <MetadataEditor
                  key={bag}
                  t={t}
                  environmentId={environmentId}
                  userId={user.id}
                  bag={bag}
                  limit={METADATA_LIMITS[bag]}
                  text={editorText(user[bag])}
                  readOnly={!canWrite || user.status === "deleted"}
                />
              ))}
            </div>
          </Card>
          {sessions?.kind === "ok" && sessions.data ? <SessionsSection {...section} sessions={sessions.data.items} hasMore={sessions.data.hasMore} /> : null}
          <IdentitiesSection {...section} />
          {canWrite && user.status !== "deleted" ? (
            <>
              {operatorMay(operator.role, "revealSecrets") ? (
                <Card title={t.users.impersonate.title} lead={t.users.impersonate.lead}>
                  <ImpersonateForm t={t} environmentId={environmentId} userId={user.id} />
                </Card>
              ) : null}
              <BanSection {...section} />
              <DeleteSection {...section} />
            </>
          ) : null}
          <RecentEventsSlot t={t}>
            {events?.kind === "ok" && events.data ? <EventList events={events.data.items} copy={copy} label={t.users.events.title} /> : null}
          </RecentEventsSlot>
        </>
      )}
    </DashboardShell>
  );
}
