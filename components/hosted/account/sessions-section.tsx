import { sessionsAction } from "@/lib/hosted/actions/sessions";
import { describeDevice } from "@/lib/hosted/describe-device";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import { format, type Locale, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { SignOutForm } from "../sign-out-form";
import { FormActions } from "@/components/ui/form-actions";
import styles from "./account.module.css";

interface SessionItem {
  id: string;
  current: boolean;
  userAgent: string | null;
  ipAddress: string | null;
  lastActiveAt: string;
}

interface SessionsSectionProps {
  t: Messages;
  flow: HostedFlow;
  locale: Locale;
  sessions: SessionItem[];
}

/** Where the person is signed in, with "sign out" per other device, everywhere else, and here. */
export function SessionsSection({ t, flow, locale, sessions }: SessionsSectionProps) {
  const copy = t.account.sessions;
  const dates = dateTimeFormat(locale);
  const deviceName = (userAgent: string | null) => {
    const device = describeDevice(userAgent);
    return device ? format(copy.device, device) : copy.unknownDevice;
  };
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Card title={copy.title} lead={<p>{copy.lead}</p>} id="sessions">
      <ActionForm action={sessionsAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        <ul className={styles.list}>
          {sessions.map((session) => (
            <li key={session.id} className={styles.item} data-testid="session" data-current={session.current || undefined}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>
                  {deviceName(session.userAgent)} {session.current ? <Badge tone="accent">{copy.thisDevice}</Badge> : null}
                </span>
                <span className={styles.meta}>
                  {format(copy.lastActive, { time: dates.format(new Date(session.lastActiveAt)) })}
                  {session.ipAddress ? ` · ${session.ipAddress}` : null}
                </span>
              </div>
              {!session.current ? (
                <div className={styles.itemActions}>
                  <SubmitButton variant="quiet" name="intent" value={`revoke:${session.id}`} aria-label={format(copy.signOutDeviceLabel, { device: deviceName(session.userAgent) })}>
                    {copy.signOutDevice}
                  </SubmitButton>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        <FormStatus />
        {others > 0 ? (
          <FormActions>
            <SubmitButton variant="secondary" name="intent" value="revoke-others">
              {copy.signOutOthers}
            </SubmitButton>
          </FormActions>
        ) : null}
      </ActionForm>
      <SignOutForm flow={flow} label={copy.signOutHere} variant="secondary" />
    </Card>
  );
}
