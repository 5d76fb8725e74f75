import { addEmailAddressAction, emailAddressAction } from "@/lib/hosted/actions/email-addresses";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { FormActions } from "@/components/ui/form-actions";
import styles from "./account.module.css";

interface EmailAddress {
  id: string;
  email: string;
  verified: boolean;
  primary: boolean;
}

/** The address list (one form; each button posts its own intent) and the add form. */
export function EmailAddressesSection({ t, flow, addresses }: { t: Messages; flow: HostedFlow; addresses: EmailAddress[] }) {
  const copy = t.account.emails;
  return (
    <Card title={copy.title} id="email-addresses">
      <ActionForm action={emailAddressAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        <ul className={styles.list}>
          {addresses.map((address) => (
            <li key={address.id} className={styles.item} data-testid="email-address">
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>{address.email}</span>
                <span className={styles.badges}>
                  {address.primary ? <Badge tone="accent">{copy.primary}</Badge> : null}
                  {address.verified ? <Badge tone="success">{copy.verified}</Badge> : <Badge>{copy.unverified}</Badge>}
                </span>
              </div>
              <div className={styles.itemActions}>
                {!address.verified ? (
                  <SubmitButton variant="quiet" name="intent" value={`resend:${address.id}`} aria-label={format(copy.resendLabel, { email: address.email })}>
                    {copy.resend}
                  </SubmitButton>
                ) : null}
                {address.verified && !address.primary ? (
                  <SubmitButton variant="secondary" name="intent" value={`promote:${address.id}`} aria-label={format(copy.promoteLabel, { email: address.email })}>
                    {copy.promote}
                  </SubmitButton>
                ) : null}
                {!address.primary ? (
                  <SubmitButton variant="quiet" name="intent" value={`remove:${address.id}`} aria-label={format(copy.removeLabel, { email: address.email })}>
                    {copy.remove}
                  </SubmitButton>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
        <FormStatus />
      </ActionForm>
      <h3 className={styles.subheading}>{copy.addTitle}</h3>
      <ActionForm action={addEmailAddressAction} hidden={hostedFlowFields(flow)} aria-label={copy.addTitle}>
        <TextField name="email" type="email" label={t.fields.email} autoComplete="email" spellCheck={false} autoCapitalize="none" required />
        <FormStatus />
        <FormActions>
          <SubmitButton variant="secondary">{copy.add}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
