import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { DataExportSection } from "@/components/hosted/account/data-export-section";
import { DeleteAccountSection } from "@/components/hosted/account/delete-account-section";
import { EmailAddressesSection } from "@/components/hosted/account/email-addresses-section";
import { PasswordSection } from "@/components/hosted/account/password-section";
import { ProfileSection } from "@/components/hosted/account/profile-section";
import { ReverifySection } from "@/components/hosted/account/reverify-section";
import { SessionsSection } from "@/components/hosted/account/sessions-section";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { passwordStatus } from "@/lib/auth/change-password";
import { backToAppUrl, nextStepUrl } from "@/lib/hosted/continue-url";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, searchParam, tenantFromSearch } from "@/lib/hosted/tenant";
import { sessionState } from "@/lib/sessions/gates";
import { listMySessions } from "@/lib/sessions/my-sessions";
import { listDataRequests } from "@/lib/users/data-requests";
import { listEmailAddresses } from "@/lib/users/email-addresses";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.account.title);

// GET /account — profile, email addresses, password, sessions and deletion for the signed-in user.
export default async function AccountPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const tenant = tenantFromSearch(search);
  const context = await loadHostedPage(tenant.publishableKey);
  const { t, environment, session, branding, locale } = context;
  if (!session) redirect(hostedHref("/sign-in", { ...tenant, redirectUrl: "/account" }));
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  if (state.status === "PENDING") redirect(nextStepUrl(environment, state, tenant));

  const { user } = session;
  const [addresses, sessions, dataRequests] = await Promise.all([
    listEmailAddresses(getDb(), session),
    listMySessions(getDb(), session),
    listDataRequests(getDb(), session),
  ]);
  const backTo = backToAppUrl(environment, tenant);
  return (
    <HostedShell context={context} returnTo={hostedHref("/account", tenant)} wide>
      <Card level={1} title={t.account.title} lead={<p>{format(t.account.lead, { app: branding.applicationName, email: user.email ?? "" })}</p>}>
        {backTo ? <TextLink href={backTo}>{format(t.account.continueToApp, { app: branding.applicationName })}</TextLink> : null}
      </Card>
      {searchParam(search, "reverify") ? <ReverifySection t={t} tenant={tenant} email={user.email} /> : null}
      {searchParam(search, "reverified") ? (
        <Alert tone="success" role="status">
          {t.account.reverify.done}
        </Alert>
      ) : null}
      <ProfileSection t={t} tenant={tenant} user={user} />
      <EmailAddressesSection t={t} tenant={tenant} addresses={addresses.items} />
      <PasswordSection
        t={t}
        tenant={tenant}
        hasPassword={passwordStatus(session).hasPassword}
        email={user.email}
        minLength={environment.settings.passwordPolicy.minLength}
      />
      <SessionsSection t={t} tenant={tenant} locale={locale} sessions={sessions.items} />
      <DataExportSection t={t} tenant={tenant} appName={branding.applicationName} dates={dateTimeFormat(locale)} requests={dataRequests.items} />
      {user.email ? <DeleteAccountSection t={t} tenant={tenant} email={user.email} /> : null}
    </HostedShell>
  );
}
