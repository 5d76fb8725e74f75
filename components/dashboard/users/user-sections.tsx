import type { ReactNode } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormStatus } from "@/components/ui/form-status";
import { SelectField } from "@/components/ui/select-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import {
  banUserAction,
  deleteUserAction,
  removeIdentityAction,
  resetMfaAction,
  revokeAllSessionsAction,
  revokeSessionAction,
  unbanUserAction,
  updateUserProfileAction,
} from "@/lib/dashboard/actions/users";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { describeDevice } from "@/lib/hosted/describe-device";
import { format, type Locale } from "@/lib/hosted/i18n/messages";
import type { SessionView } from "@/lib/sessions/schemas";
import type { ServerUser } from "@/lib/users/schemas";
import { ResultToast } from "../result-toast";
import { TypeToConfirmField } from "../type-to-confirm-field";
import { UserActionForm } from "./user-action-form";
import { UserStatusBadge } from "./user-status-badge";
import dashboard from "../dashboard.module.css";
import styles from "./users.module.css";

/** What every section of a user's page knows. */
export interface UserSectionProps {
  t: DashboardMessages;
  locale: Locale;
  environmentId: string;
  user: ServerUser;
  /** The operator's role may write: the write controls show (the actions check anyway). */
  canWrite: boolean;
  when: Intl.DateTimeFormat;
}

export function ProfileSection({ t, environmentId, user, canWrite, when }: UserSectionProps) {
  const copy = t.users.profile;
  return (
    <Card title={copy.title}>
      <dl className={dashboard.details}>
        <dt>{copy.id}</dt>
        <dd className={dashboard.code}>{user.id}</dd>
        <dt>{copy.status}</dt>
        <dd>
          <UserStatusBadge t={t} status={user.status} />
        </dd>
        <dt>{copy.password}</dt>
        <dd>{user.hasPassword ? copy.hasPassword : copy.noPassword}</dd>
        <dt>{copy.created}</dt>
        <dd>{when.format(new Date(user.createdAt))}</dd>
        <dt>{copy.updated}</dt>
        <dd>{when.format(new Date(user.updatedAt))}</dd>
        {user.deletedAt ? (
          <>
            <dt>{copy.deleted}</dt>
            <dd>{when.format(new Date(user.deletedAt))}</dd>
          </>
        ) : null}
      </dl>
      {canWrite && user.status !== "deleted" ? (
        <ActionForm action={updateUserProfileAction} hidden={{ env: environmentId, userId: user.id }} aria-label={copy.title}>
          <div className={styles.columns}>
            <TextField name="firstName" label={copy.firstName} defaultValue={user.firstName ?? ""} autoComplete="off" />
            <TextField name="lastName" label={copy.lastName} defaultValue={user.lastName ?? ""} autoComplete="off" />
          </div>
          <SelectField
            name="locale"
            label={copy.locale}
            defaultValue={user.locale ?? ""}
            options={[
              { value: "", label: copy.localeNone },
              { value: "en", label: "English", lang: "en" },
              { value: "da", label: "Dansk", lang: "da" },
            ]}
          />
          <FormStatus errorsOnly />
          <ResultToast />
          <div>
            <SubmitButton variant="secondary">{copy.save}</SubmitButton>
          </div>
        </ActionForm>
      ) : (
        <dl className={dashboard.details}>
          <dt>{copy.firstName}</dt>
          <dd>{user.firstName ?? "—"}</dd>
          <dt>{copy.lastName}</dt>
          <dd>{user.lastName ?? "—"}</dd>
          <dt>{copy.locale}</dt>
          <dd>{user.locale ?? copy.localeNone}</dd>
        </dl>
      )}
    </Card>
  );
}

export function EmailsSection({ t, user }: UserSectionProps) {
  const copy = t.users.emails;
  return (
    <Card title={copy.title}>
      {user.email ? (
        <ul className={styles.list}>
          <li className={styles.listRow}>
            <span className={styles.mono}>{user.email}</span>
            <span>
              <Badge tone="accent">{copy.primary}</Badge>{" "}
              <Badge tone={user.emailVerifiedAt ? "success" : "neutral"}>{user.emailVerifiedAt ? t.users.profile.verified : t.users.profile.unverified}</Badge>
            </span>
          </li>
        </ul>
      ) : (
        <p className={styles.muted}>{copy.none}</p>
      )}
    </Card>
  );
}

export function SessionsSection({ t, environmentId, user, canWrite, when, sessions, hasMore }: UserSectionProps & { sessions: SessionView[]; hasMore: boolean }) {
  const copy = t.users.sessions;
  const active = sessions.some((session) => session.status === "active");
  return (
    <Card title={copy.title}>
      {sessions.length === 0 ? (
        <p className={styles.muted}>{copy.none}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption>{copy.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{copy.device}</th>
                <th scope="col">{copy.ip}</th>
                <th scope="col">{copy.lastActive}</th>
                <th scope="col">{copy.status}</th>
                {canWrite ? <th scope="col">{copy.actions}</th> : null}
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => {
                const device = describeDevice(session.userAgent);
                const deviceText = device ? `${device.browser} · ${device.os}` : copy.unknownDevice;
                const lastActive = when.format(new Date(session.lastActiveAt));
                return (
                  <tr key={session.id} data-testid="session-row">
                    <th scope="row" title={session.userAgent ?? undefined}>
                      {deviceText}
                    </th>
                    <td className={styles.mono}>{session.ipAddress ?? copy.unknownIp}</td>
                    <td className={styles.nowrap}>{lastActive}</td>
                    <td>
                      <Badge tone={session.status === "active" ? "success" : "neutral"}>{copy.statuses[session.status]}</Badge>
                    </td>
                    {canWrite ? (
                      <td>
                        {session.status === "active" ? (
                          <UserActionForm
                            action={revokeSessionAction}
                            environmentId={environmentId}
                            userId={user.id}
                            hidden={{ sessionId: session.id }}
                            submit={copy.revoke}
                            submitLabel={format(copy.revokeLabel, { device: deviceText, time: lastActive })}
                          />
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {hasMore ? <p className={styles.muted}>{format(copy.more, { count: String(sessions.length) })}</p> : null}
      {canWrite && active ? (
        <UserActionForm action={revokeAllSessionsAction} environmentId={environmentId} userId={user.id} submit={copy.revokeAll} variant="danger" />
      ) : null}
    </Card>
  );
}

export function IdentitiesSection({ t, environmentId, user, canWrite, when }: UserSectionProps) {
  const copy = t.users.identities;
  return (
    <Card title={copy.title}>
      {user.identities.length === 0 ? (
        <p className={styles.muted}>{copy.none}</p>
      ) : (
        <ul className={styles.list}>
          {user.identities.map((identity) => (
            <li key={identity.id} className={styles.listRow}>
              <span>
                <strong>{identity.provider}</strong> <span className={styles.mono}>{identity.email ?? identity.id}</span>{" "}
                <span className={styles.muted}>{format(copy.since, { time: when.format(new Date(identity.createdAt)) })}</span>
              </span>
              {canWrite ? (
                <UserActionForm
                  action={removeIdentityAction}
                  environmentId={environmentId}
                  userId={user.id}
                  hidden={{ identityId: identity.id }}
                  submit={copy.remove}
                  submitLabel={format(copy.removeLabel, { provider: identity.provider, account: identity.email ?? identity.id })}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function FactorsSection({ t, environmentId, user, canWrite }: UserSectionProps) {
  const copy = t.users.mfa;
  const any = user.mfaEnabled || user.passkeys > 0;
  return (
    <Card title={copy.title}>
      <dl className={dashboard.details}>
        <dt>{copy.app}</dt>
        <dd>
          <Badge tone={user.mfaEnabled ? "success" : "neutral"}>{user.mfaEnabled ? copy.on : copy.off}</Badge>
        </dd>
        <dt>{copy.passkeys}</dt>
        <dd>{user.passkeys}</dd>
      </dl>
      {canWrite && user.status !== "deleted" ? (
        any ? (
          <UserActionForm action={resetMfaAction} environmentId={environmentId} userId={user.id} submit={copy.reset} variant="danger" aria-label={copy.reset}>
            <p className={styles.lead}>{copy.resetLead}</p>
            <Checkbox name="confirmReset" label={copy.confirm} />
          </UserActionForm>
        ) : (
          <p className={styles.muted}>{copy.nothing}</p>
        )
      ) : null}
    </Card>
  );
}

export function OrganizationsSection({ t, user }: UserSectionProps) {
  const copy = t.users.organizations;
  return (
    <Card title={copy.title}>
      {user.organizations.length === 0 ? (
        <p className={styles.muted}>{copy.none}</p>
      ) : (
        <ul className={styles.list}>
          {user.organizations.map((organization) => (
            <li key={organization.id} className={styles.listRow}>
              <span>{organization.name}</span>
              <span className={styles.muted}>
                {copy.role}: {organization.roleName ?? organization.role}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function BanSection({ t, environmentId, user }: UserSectionProps) {
  const copy = t.users.ban;
  const banned = user.status === "banned";
  return (
    <Card title={copy.title}>
      <p className={styles.lead}>{banned ? copy.leadBanned : copy.leadActive}</p>
      <UserActionForm
        action={banned ? unbanUserAction : banUserAction}
        environmentId={environmentId}
        userId={user.id}
        submit={banned ? copy.unban : copy.ban}
        variant={banned ? "secondary" : "danger"}
      />
    </Card>
  );
}

export function DeleteSection({ t, environmentId, user }: UserSectionProps) {
  const copy = t.users.delete;
  const expected = user.email ?? user.id;
  return (
    <Card title={copy.title} tone="danger">
      <p className={styles.lead}>{copy.lead}</p>
      <UserActionForm action={deleteUserAction} environmentId={environmentId} userId={user.id} submit={copy.submit} variant="danger" aria-label={copy.title}>
        <TypeToConfirmField label={format(copy.confirm, { expected })} expected={expected} />
      </UserActionForm>
    </Card>
  );
}

/** "Recent events": the card around the user's audit events (components/dashboard/events). */
export function RecentEventsSlot({ t, children }: { t: DashboardMessages; children?: ReactNode }) {
  return (
    <Card title={t.users.events.title} id="recent-events">
      <div className={styles.slot} data-slot="recent-events">
        {children}
      </div>
    </Card>
  );
}
