import { z } from "zod";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { InvitationsSection, LeaveSection, MembersSection } from "@/components/hosted/organizations/organization-sections";
import { SettingsSection } from "@/components/hosted/organizations/organization-settings-section";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { AppError } from "@/lib/errors";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { acceptedSession, loadOperation, type HostedPage } from "@/lib/hosted/load-operation";
import { hostedFlowFromSearch, hostedHref, searchParam, type SearchParams } from "@/lib/flows/hosted-flow";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata } from "@/lib/hosted/page-metadata";
import { getMyOrganizationEndpoint, listOrganizationMembersEndpoint, listOrganizationRolesEndpoint } from "@/lib/organizations/endpoints";
import { listOrganizationInvitationsEndpoint } from "@/lib/organizations/invitations-endpoints";
import { mayDeleteOrganization } from "@/lib/organizations/organizations";

interface OrganizationPageProps {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<SearchParams>;
}

const MEMBERS_PER_PAGE = "50";

/** The answers of getMyOrganization that mean "no organization of yours here": organizations off, an id that is none, not a member. */
const NOT_YOURS = new Set(["forbidden", "invalid_request", "resource_not_found"]);

export const generateMetadata = (props: OrganizationPageProps) => hostedMetadata(props, (t) => t.organizations.switcher.title);

/** One page of members; a cursor that names no member of the organization (edited by hand) starts over. */
async function memberPage(page: HostedPage, organizationId: string, cursor: string | undefined, query: string | undefined) {
  const load = (from: string | undefined) =>
    loadOperation(page, listOrganizationMembersEndpoint, {
      params: { organizationId },
      query: { limit: MEMBERS_PER_PAGE, ...(from ? { cursor: from } : {}), ...(query ? { query } : {}) },
    });
  try {
    return await load(cursor);
  } catch (error) {
    if (!(error instanceof AppError) || !cursor) throw error;
    return load(undefined);
  }
}

// GET /organizations/{id}?query=&cursor= — for its members: members (role change, remove), invitations (invite, resend, revoke), settings (rename, delete) and leave, each as the caller's permissions allow.
export default async function OrganizationPage({ params, searchParams }: OrganizationPageProps) {
  const { organizationId } = await params;
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, locale, branding } = context;
  const here = `/organizations/${encodeURIComponent(organizationId)}`;
  // Signed out: sign-in, then back here; held by a gate: that gate's page. The organization comes with the caller's role and permissions.
  const page = { ...context, flow, returnTo: here };
  const path = { organizationId };
  const organization = await loadOperation(page, getMyOrganizationEndpoint, { params: path }).catch((error: unknown) => {
    if (error instanceof AppError && NOT_YOURS.has(error.code)) return null;
    throw error;
  });
  if (!organization) {
    return (
      <HostedShell context={context} returnTo={hostedHref(here, flow)}>
        <Card level={1} title={t.organizations.page.notFoundTitle} lead={<p>{t.organizations.page.notFound}</p>}>
          <TextLink href={hostedHref("/account", flow)}>{t.organizations.page.back}</TextLink>
        </Card>
      </HostedShell>
    );
  }
  // NUL characters dropped: Postgres refuses them in a LIKE pattern.
  const query = searchParam(search, "query")?.replace(/\u0000/g, "").trim().slice(0, 100) || undefined;
  const rawCursor = searchParam(search, "cursor");
  const cursor = rawCursor && z.uuid().safeParse(rawCursor).success ? rawCursor : undefined;
  const membership = { role: organization.role, permissions: organization.permissions };
  const canInvite = membership.permissions.includes("org:invitations:manage");
  const [roles, members, invitations] = await Promise.all([
    loadOperation(page, listOrganizationRolesEndpoint, { params: path }).then((list) => list.items),
    memberPage(page, organizationId, cursor, query),
    canInvite ? loadOperation(page, listOrganizationInvitationsEndpoint, { params: path, query: { status: "pending", limit: "100" } }) : null,
  ]);
  const caller = { userId: acceptedSession(page).user.id, ...membership };
  const pageLink = (extra: Record<string, string>) => hostedHref(here, flow, { ...(query ? { query } : {}), ...extra });
  return (
    <HostedShell context={context} returnTo={pageLink(cursor ? { cursor } : {})} wide>
      <Card
        level={1}
        title={organization.name}
        lead={<p>{format(t.organizations.page.lead, { role: organization.roleName ?? organization.role })}</p>}
      >
        <TextLink href={hostedHref("/account", flow)}>{t.organizations.page.back}</TextLink>
      </Card>
      <MembersSection
        t={t}
        flow={flow}
        organizationId={organizationId}
        caller={caller}
        roles={roles}
        members={members.items}
        query={query ?? ""}
        nextHref={members.nextCursor ? pageLink({ cursor: members.nextCursor }) : null}
        firstHref={cursor ? pageLink({}) : null}
      />
      {invitations ? (
        <InvitationsSection
          t={t}
          flow={flow}
          organizationId={organizationId}
          caller={caller}
          roles={roles}
          invitations={invitations.items}
          dates={dateTimeFormat(locale)}
        />
      ) : null}
      {membership.permissions.includes("org:settings:manage") ? (
        <SettingsSection t={t} flow={flow} appName={branding.applicationName} organization={organization} canDelete={mayDeleteOrganization(membership)} />
      ) : null}
      <LeaveSection t={t} flow={flow} organization={organization} caller={caller} />
    </HostedShell>
  );
}
