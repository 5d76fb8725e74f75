import { DataExportSection } from "@/components/hosted/account/data-export-section";
import { DeleteAccountSection } from "@/components/hosted/account/delete-account-section";
import { EmailAddressesSection } from "@/components/hosted/account/email-addresses-section";
import { IdentitiesSection } from "@/components/hosted/account/identities-section";
import { PasskeysSection } from "@/components/hosted/account/passkeys-section";
import { PasswordSection } from "@/components/hosted/account/password-section";
import { ProfileSection } from "@/components/hosted/account/profile-section";
import { ReverifySection } from "@/components/hosted/account/reverify-section";
import { SessionsSection } from "@/components/hosted/account/sessions-section";
import { TwoStepSection } from "@/components/hosted/account/two-step-section";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { OrganizationsSection } from "@/components/hosted/organizations/organizations-section";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { backToAppUrl } from "@/lib/hosted/continue-url";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { acceptedSession, loadOperation } from "@/lib/hosted/load-operation";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, searchParam, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";
import { CONNECTED_PARAM, connectLinks, reverifyLinks } from "@/lib/identities/connect-links";
import { listMyIdentitiesEndpoint } from "@/lib/identities/endpoints";
import { getMfaStatusEndpoint } from "@/lib/mfa/endpoints";
import { hasAnyFactor } from "@/lib/mfa/user-factors";
import { listPublicOAuthProvidersEndpoint } from "@/lib/oauth/client-endpoints";
import { listMyOrganizationsEndpoint } from "@/lib/organizations/endpoints";
import { listPasskeysEndpoint } from "@/lib/passkeys/endpoints";
import { getMeEndpoint, listDataRequestsEndpoint, listEmailAddressesEndpoint, listMySessionsEndpoint } from "@/lib/users/me-endpoints";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.account.title);

// GET /account — profile, email addresses, password, two-step verification, passkeys, connected accounts, organizations, sessions and deletion for the signed-in user.
export default async function AccountPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, branding, locale } = context;
  // Signed out: sign-in, then back here; a session held by a gate: that gate's page (loadOperation).
  const page = { ...context, flow, returnTo: "/account" };
  const organizationsOn = environment.settings.organizations.enabled;
  const [user, addresses, sessions, dataRequests, factors, passkeys, identities, providers, organizations] = await Promise.all([
    loadOperation(page, getMeEndpoint),
    loadOperation(page, listEmailAddressesEndpoint),
    loadOperation(page, listMySessionsEndpoint),
    loadOperation(page, listDataRequestsEndpoint),
    loadOperation(page, getMfaStatusEndpoint),
    loadOperation(page, listPasskeysEndpoint),
    loadOperation(page, listMyIdentitiesEndpoint),
    loadOperation(page, listPublicOAuthProvidersEndpoint),
    organizationsOn ? loadOperation(page, listMyOrganizationsEndpoint).then((list) => list.items) : [],
  ]);
  const session = acceptedSession(page);
  const connectedProvider = searchParam(search, CONNECTED_PARAM);
  const linkOutcome = connectedProvider
    ? {
        providerName: providers.data.find((provider) => provider.id === connectedProvider)?.name ?? null,
        error: searchParam(search, "error"),
      }
    : null;
  const { hasPassword } = user;
  const connectedProviders = identities.items.map((identity) => identity.provider);
  const dates = dateTimeFormat(locale);
  const backTo = backToAppUrl({ ...context, flow });
  return (
    <HostedShell context={context} returnTo={hostedHref("/account", flow)} wide>
      <Card level={1} title={t.account.title} lead={<p>{format(t.account.lead, { app: branding.applicationName, email: user.email ?? "" })}</p>}>
        {backTo ? <TextLink href={backTo}>{format(t.account.continueToApp, { app: branding.applicationName })}</TextLink> : null}
      </Card>
      {searchParam(search, "reverify") ? (
        <ReverifySection
          t={t}
          flow={flow}
          email={user.email}
          factors={{ password: hasPassword, totp: factors.totp, passkeys: factors.passkeys }}
          providers={reverifyLinks(flow, providers.data, connectedProviders, hasAnyFactor(factors))}
        />
      ) : null}
      {searchParam(search, "organizationDeleted") ? (
        <Alert tone="success" role="status">
          {t.organizations.page.settings.deleted}
        </Alert>
      ) : null}
      {searchParam(search, "reverified") ? (
        <Alert tone="success" role="status">
          {t.account.reverify.done}
        </Alert>
      ) : null}
      <ProfileSection t={t} flow={flow} user={user} />
      <EmailAddressesSection t={t} flow={flow} addresses={addresses.items} />
      <PasswordSection
        t={t}
        flow={flow}
        hasPassword={hasPassword}
        email={user.email}
        minLength={environment.settings.passwordPolicy.minLength}
      />
      <TwoStepSection
        t={t}
        flow={flow}
        enabled={factors.totp}
        recoveryCodesLeft={factors.recoveryCodesLeft}
        appName={branding.applicationName}
        email={user.email}
      />
      <PasskeysSection t={t} flow={flow} dates={dates} passkeys={passkeys.items} />
      <IdentitiesSection
        t={t}
        flow={flow}
        dates={dates}
        identities={identities.items}
        connect={connectLinks(environment, session, flow, providers.data, connectedProviders)}
        outcome={linkOutcome}
      />
      {organizationsOn ? (
        <OrganizationsSection
          t={t}
          flow={flow}
          appName={branding.applicationName}
          organizations={organizations}
          activeOrganizationId={session.session.activeOrganizationId}
        />
      ) : null}
      <SessionsSection t={t} flow={flow} locale={locale} sessions={sessions.items} />
      <DataExportSection t={t} flow={flow} appName={branding.applicationName} dates={dates} requests={dataRequests.items} />
      {user.email ? <DeleteAccountSection t={t} flow={flow} email={user.email} /> : null}
    </HostedShell>
  );
}
