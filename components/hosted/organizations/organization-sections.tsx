import { invitationsAction, inviteAction, leaveOrganizationAction, membersAction } from "@/lib/hosted/actions/organizations";
import { hostedFlowFields, hostedHref, type HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { INVITATION_LIFETIME_DAYS } from "@/lib/organizations/invitations";
import { mayManageRole } from "@/lib/organizations/role-authority";
import { roleOrBare, type OrgRole } from "@/lib/organizations/roles";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SelectField } from "@/components/ui/select-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";
import styles from "../account/account.module.css";

/** The signed-in member looking at the page: what they may do decides which controls exist. */
export interface Caller {
  userId: string;
  role: string;
  permissions: string[];
}

export interface MemberItem {
  userId: string;
  name: string | null;
  email: string | null;
  role: string;
  roleName: string | null;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}

/** The roles the caller may hand out (mayManageRole: only an owner makes owners, no one grants beyond their own permissions). */
export function assignableRoles(caller: Caller, roles: readonly OrgRole[]): OrgRole[] {
  return roles.filter((role) => mayManageRole(caller, role));
}

/** Whether the caller may change or remove this (other) member: the permission, and a role within the caller's reach. */
export function canManageMember(caller: Caller, member: { userId: string; role: string }, roles: readonly OrgRole[]): boolean {
  if (member.userId === caller.userId || !caller.permissions.includes("org:members:manage")) return false;
  return mayManageRole(caller, roleOrBare(roles, member.role));
}

function roleLabel(roles: readonly OrgRole[], key: string): string {
  return roles.find((role) => role.key === key)?.name ?? key;
}

interface MembersSectionProps {
  t: Messages;
  flow: HostedFlow;
  organizationId: string;
  caller: Caller;
  roles: OrgRole[];
  members: MemberItem[];
  query: string;
  nextHref: string | null;
  firstHref: string | null;
}

/** Members with, where the caller may, a role select + "change role" and "remove" per member; a GET search form; keyset pages. */
export function MembersSection({ t, flow, organizationId, caller, roles, members, query, nextHref, firstHref }: MembersSectionProps) {
  const copy = t.organizations.page.members;
  const displayName = (member: MemberItem) => member.name ?? member.email ?? member.userId;
  const hidden: Record<string, string> = { ...hostedFlowFields(flow), organizationId };
  for (const member of members) hidden[`name:${member.userId}`] = displayName(member);
  const options = assignableRoles(caller, roles).map((role) => ({ value: role.key, label: role.name }));
  return (
    <Card title={copy.title} id="members">
      <form method="get" role="search" aria-label={copy.search} className={styles.columns}>
        {Object.entries(hostedFlowFields(flow)).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <TextField name="query" type="text" label={copy.search} defaultValue={query} />
        <FormActions>
          <Button type="submit" variant="secondary">
            {copy.searchSubmit}
          </Button>
        </FormActions>
      </form>
      {members.length === 0 ? <p>{copy.noMatch}</p> : null}
      <ActionForm action={membersAction} hidden={hidden} aria-label={copy.title}>
        <ul className={styles.list}>
          {members.map((member) => {
            const manageable = canManageMember(caller, member, roles);
            return (
              <li key={member.userId} className={styles.item} data-testid="member">
                <div className={styles.itemMain}>
                  <span className={styles.itemTitle}>
                    {displayName(member)} {member.userId === caller.userId ? <Badge tone="accent">{copy.you}</Badge> : null}
                  </span>
                  <span className={styles.meta}>
                    {member.email && member.name ? `${member.email} · ` : null}
                    {member.roleName ?? roleLabel(roles, member.role)}
                  </span>
                </div>
                {manageable ? (
                  <div className={styles.controlRow}>
                    <SelectField
                      name={`role:${member.userId}`}
                      label={format(copy.role, { name: displayName(member) })}
                      options={options}
                      defaultValue={member.role}
                      inline
                    />
                    <SubmitButton variant="secondary" name="intent" value={`role:${member.userId}`}>
                      {copy.changeRole}
                    </SubmitButton>
                    <SubmitButton
                      variant="quiet"
                      name="intent"
                      value={`remove:${member.userId}`}
                      aria-label={format(copy.removeLabel, { name: displayName(member) })}
                    >
                      {copy.remove}
                    </SubmitButton>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
        <FormStatus />
      </ActionForm>
      {nextHref ? <TextLink href={nextHref}>{copy.next}</TextLink> : null}
      {firstHref ? <TextLink href={firstHref}>{copy.first}</TextLink> : null}
    </Card>
  );
}

interface InvitationsSectionProps {
  t: Messages;
  flow: HostedFlow;
  organizationId: string;
  caller: Caller;
  roles: OrgRole[];
  invitations: PendingInvitation[];
  dates: Intl.DateTimeFormat;
}

/** Shown only to callers with org:invitations:manage: the invite form and the pending invitations with resend / revoke. */
export function InvitationsSection({ t, flow, organizationId, caller, roles, invitations, dates }: InvitationsSectionProps) {
  const copy = t.organizations.page.invitations;
  const hidden = { ...hostedFlowFields(flow), organizationId };
  const options = assignableRoles(caller, roles).map((role) => ({ value: role.key, label: role.name }));
  const defaultRole = options.find((option) => option.value === "member")?.value ?? options.at(-1)?.value;
  return (
    <Card title={copy.title} lead={<p>{format(copy.lead, { days: INVITATION_LIFETIME_DAYS })}</p>} id="invitations">
      <ActionForm action={inviteAction} hidden={hidden} aria-label={copy.invite}>
        <div className={styles.columns}>
          <TextField name="email" type="email" label={copy.email} autoComplete="off" required />
          <SelectField name="role" label={copy.role} options={options} defaultValue={defaultRole} />
        </div>
        <FormStatus />
        <FormActions>
          <SubmitButton>{copy.invite}</SubmitButton>
        </FormActions>
      </ActionForm>
      <h3 className={styles.subheading}>{copy.pending}</h3>
      {invitations.length === 0 ? (
        <p className={styles.text}>{copy.none}</p>
      ) : (
        <ActionForm action={invitationsAction} hidden={hidden} aria-label={copy.pending}>
          <ul className={styles.list}>
            {invitations.map((invitation) => (
              <li key={invitation.id} className={styles.item} data-testid="invitation">
                <div className={styles.itemMain}>
                  <span className={styles.itemTitle}>{invitation.email}</span>
                  <span className={styles.meta}>
                    {format(copy.expires, { role: roleLabel(roles, invitation.role), date: dates.format(new Date(invitation.expiresAt)) })}
                  </span>
                </div>
                {mayManageRole(caller, roleOrBare(roles, invitation.role)) ? (
                  <div className={styles.itemActions}>
                    <SubmitButton variant="quiet" name="intent" value={`resend:${invitation.id}`} aria-label={format(copy.resendLabel, { email: invitation.email })}>
                      {copy.resend}
                    </SubmitButton>
                    <SubmitButton variant="quiet" name="intent" value={`revoke:${invitation.id}`} aria-label={format(copy.revokeLabel, { email: invitation.email })}>
                      {copy.revoke}
                    </SubmitButton>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <FormStatus />
        </ActionForm>
      )}
    </Card>
  );
}

/** "Leave organization": any member may (the last owner is refused by the operation, with its message). */
export function LeaveSection({ t, flow, organization, caller }: { t: Messages; flow: HostedFlow; organization: { id: string; name: string }; caller: Caller }) {
  const copy = t.organizations.page.members;
  return (
    <Card title={copy.leave} lead={<p>{format(copy.leaveLead, { organization: organization.name })}</p>} tone="danger" id="leave">
      <ActionForm action={leaveOrganizationAction} hidden={{ ...hostedFlowFields(flow), organizationId: organization.id, userId: caller.userId }}>
        <FormStatus />
        <FormActions>
          <SubmitButton variant="danger">{copy.leave}</SubmitButton>
        </FormActions>
      </ActionForm>
      <p className={styles.backLink}>
        <TextLink href={hostedHref("/account", flow)}>{t.organizations.page.back}</TextLink>
      </p>
    </Card>
  );
}
