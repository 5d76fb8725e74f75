import { identityListAction } from "@/lib/hosted/actions/identities";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import type { ConnectLinks } from "@/lib/identities/connect-links";
import type { IdentityView } from "@/lib/identities/schemas";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import styles from "./account.module.css";

/** How a link flow came back to the page: the provider it connected, or the error code it ended with. */
export interface LinkOutcome {
  providerName: string | null;
  error: string | null;
}

interface IdentitiesSectionProps {
  t: Messages;
  flow: HostedFlow;
  dates: Intl.DateTimeFormat;
  identities: IdentityView[];
  connect: ConnectLinks;
  outcome: LinkOutcome | null;
}

function outcomeAlert(t: Messages, outcome: LinkOutcome | null) {
  if (!outcome) return null;
  const copy = t.account.identities;
  if (!outcome.error) {
    return outcome.providerName ? (
      <Alert tone="success" role="status">
        {format(copy.connected, { provider: outcome.providerName })}
      </Alert>
    ) : null;
  }
  const message = outcome.error === "identity_already_linked" ? copy.alreadyLinked : outcome.error === "access_denied" ? copy.cancelled : copy.failed;
  return (
    <Alert tone="error" role="alert">
      {message}
    </Alert>
  );
}

/**
 * The provider accounts that sign in as the user: disconnect in one form around the
 * list (each button posts its own intent), and "connect" forms posting to the OAuth
 * link flow, which comes back here. Works without JavaScript.
 */
export function IdentitiesSection({ t, flow, dates, identities, connect, outcome }: IdentitiesSectionProps) {
  const copy = t.account.identities;
  return (
    <Card title={copy.title} lead={<p>{copy.lead}</p>} id="connected-accounts">
      {outcomeAlert(t, outcome)}
      <ActionForm action={identityListAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        {identities.length === 0 ? <p className={styles.text}>{copy.none}</p> : null}
        <ul className={styles.list} hidden={identities.length === 0}>
          {identities.map((identity) => {
            const account = identity.email ?? identity.username;
            const label = account ? `${identity.providerName} (${account})` : identity.providerName;
            return (
              <li key={identity.id} className={styles.item} data-testid="identity">
                <div className={styles.itemMain}>
                  <span className={styles.itemTitle}>{label}</span>
                  <span className={styles.meta}>
                    {format(copy.connectedAt, { date: dates.format(new Date(identity.createdAt)) })} ·{" "}
                    {identity.lastSignInAt ? format(copy.lastSignIn, { date: dates.format(new Date(identity.lastSignInAt)) }) : copy.neverSignedIn}
                  </span>
                </div>
                <div className={styles.itemActions}>
                  <SubmitButton variant="quiet" name="intent" value={`remove:${identity.id}`} aria-label={format(copy.removeLabel, { name: label })}>
                    {copy.remove}
                  </SubmitButton>
                </div>
              </li>
            );
          })}
        </ul>
        <FormStatus />
      </ActionForm>
      {connect.links.length > 0 ? (
        <>
          <h3 className={styles.subheading}>{copy.connectTitle}</h3>
          {connect.reverifyFirst ? <p className={styles.text}>{copy.reverifyFirst}</p> : null}
          <ul className={styles.list}>
            {connect.links.map((link) => (
              <li key={link.providerId} className={styles.item}>
                {connect.reverifyFirst ? (
                  <ButtonLink href={link.href} variant="secondary">
                    {format(copy.connect, { provider: link.name })}
                  </ButtonLink>
                ) : (
                  // A plain form post to the Client API, whose Origin check a GET would skip; the answer sends the browser to the provider.
                  <form method="post" action={link.href}>
                    <Button type="submit" variant="secondary">
                      {format(copy.connect, { provider: link.name })}
                    </Button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
