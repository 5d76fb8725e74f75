import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { InvitationsSection, LeaveSection, MembersSection } from "@/components/hosted/organizations/organization-sections";
import { SettingsSection } from "@/components/hosted/organizations/organization-settings-section";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { AppError } from "@/lib/errors";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedFlowFromSearch, hostedHref, searchParam, type SearchParams } from "@/lib/flows/hosted-flow";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata } from "@/lib/hosted/page-metadata";
import { listInvitations } from "@/lib/organizations/invitations";
import { listMembers } from "@/lib/organizations/members";
import { findMembership } from "@/lib/organizations/memberships";
import { getOrganizationOrThrow, mayDeleteOrganization } from "@/lib/organizations/organizations";
import { readRoleSet } from "@/lib/organizations/roles";
import { sessionState } from "@/lib/sessions/gates";

interface OrganizationPageProps {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<SearchParams>;
}

const MEMBERS_PER_PAGE = 50;

export const generateMetadata = (props: OrganizationPageProps) => hostedMetadata(props, (t) => t.organizations.switcher.title);

/** One page of members; a cursor that names no member of the organization (edited by hand) starts over. */
async function memberPage(environmentId: string, organizationId: string, cursor: string | undefined, query: string | undefined) {
  try {
    return await listMembers(getDb(), environmentId, organizationId, { limit: MEMBERS_PER_PAGE, cursor, query });
  } catch (error) {
    if (!(error instanceof AppError) || !cursor) throw error;
    return listMembers(getDb(), environmentId, organizationId, { limit: MEMBERS_PER_PAGE, query });
  }
}

// GET /organizations/{id}?query=&cursor= — for its members: members (role change, remove), invitations (invite, resend, revoke), settings (rename, delete) and leave, each as the caller's permissions allow.
export default async function OrganizationPage({ params, searchParams }: OrganizationPageProps) {
  const { organizationId } = await params;
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, session, locale, branding } = context;
  const here = `/organizations/${encodeURIComponent(organizationId)}`;
  if (!session) redirect(hostedHref("/sign-in", { ...flow, redirectUrl: here }));
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  if (state.status === "PENDING") redirect(nextStepUrl({ ...context, flow }, state));

  const membership =
    environment.settings.organizations.enabled && z.uuid().safeParse(organizationId).success
      ? await findMembership(getDb(), environment.id, organizationId, session.user.id)
      : null;
  if (!membership) {
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
  const canInvite = membership.permissions.includes("org:invitations:manage");
  const [organization, roles, members, invitations] = await Promise.all([
    getOrganizationOrThrow(getDb(), environment.id, organizationId),
    readRoleSet(getDb(), environment.id),
    memberPage(environment.id, organizationId, cursor, query),
    canInvite ? listInvitations(getDb(), environment.id, organizationId, { status: "pending", limit: 100 }) : null,
  ]);
  const caller = { userId: session.user.id, role: membership.role, permissions: membership.permissions };
  const pageLink = (extra: Record<string, string>) => hostedHref(here, flow, { ...(query ? { query } : {}), ...extra });
  return (
    <HostedShell context={context} returnTo={pageLink(cursor ? { cursor } : {})} wide>
      <Card
        level={1}
        title={organization.name}
        lead={<p>{format(t.organizations.page.lead, { role: membership.roleName ?? membership.role })}</p>}
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
