import { passkeyListAction, passkeyRegistrationOptionsAction, registerPasskeyAction } from "@/lib/hosted/actions/passkeys";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { PasskeyCeremony } from "../mfa/passkey-ceremony";
import { RenameDisclosure } from "./rename-disclosure";
import styles from "./account.module.css";

interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
}

interface PasskeysSectionProps {
  t: Messages;
  flow: HostedFlow;
  dates: Intl.DateTimeFormat;
  passkeys: PasskeyItem[];
}

/**
 * The user's passkeys: rename and remove in one form around the list (each button
 * posts its own intent, so the outcome is announced in one place that stays when a
 * row goes), and "add a passkey", a WebAuthn ceremony that needs JavaScript.
 */
export function PasskeysSection({ t, flow, dates, passkeys }: PasskeysSectionProps) {
  const copy = t.account.passkeys;
  return (
    <Card title={copy.title} lead={<p>{copy.lead}</p>} id="passkeys">
      <ActionForm action={passkeyListAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        {/* The default button: Enter in a rename field must not press the first row's buttons. Disabled, it submits nothing. */}
        <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
        {passkeys.length === 0 ? <p className={styles.text}>{copy.none}</p> : null}
        <ul className={styles.list} hidden={passkeys.length === 0}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className={styles.item} data-testid="passkey">
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>
                  {passkey.name} {passkey.backedUp ? <Badge>{copy.synced}</Badge> : null}
                </span>
                <span className={styles.meta}>
                  {format(copy.addedAt, { date: dates.format(new Date(passkey.createdAt)) })} ·{" "}
                  {passkey.lastUsedAt ? format(copy.lastUsed, { date: dates.format(new Date(passkey.lastUsedAt)) }) : copy.neverUsed}
                </span>
              </div>
              <div className={styles.itemActions}>
                <SubmitButton variant="quiet" name="intent" value={`remove:${passkey.id}`} aria-label={format(copy.removeLabel, { name: passkey.name })}>
                  {copy.remove}
                </SubmitButton>
              </div>
              <RenameDisclosure field={`name:${passkey.id}`} summary={format(copy.renameLabel, { name: passkey.name })}>
                <TextField
                  name={`name:${passkey.id}`}
                  label={format(copy.newName, { name: passkey.name })}
                  defaultValue={passkey.name}
                  maxLength={100}
                  autoComplete="off"
                  required
                />
                <FormActions>
                  <SubmitButton variant="secondary" name="intent" value={`rename:${passkey.id}`}>
                    {copy.save}
                  </SubmitButton>
                </FormActions>
              </RenameDisclosure>
            </li>
          ))}
        </ul>
        <FormStatus />
      </ActionForm>
      <h3 className={styles.subheading}>{copy.add}</h3>
      <PasskeyCeremony
        kind="register"
        options={passkeyRegistrationOptionsAction}
        verify={registerPasskeyAction}
        hidden={hostedFlowFields(flow)}
        label={copy.add}
        labels={t.passkey}
      >
        <TextField name="name" label={t.fields.passkeyName} hint={copy.nameHint} maxLength={100} autoComplete="off" />
      </PasskeyCeremony>
    </Card>
  );
}
