import { turnOffTwoStepAction, twoStepAction } from "@/lib/hosted/actions/two-step";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { recoveryCodesFile, totpSetupLabels } from "../mfa/setup-labels";
import { TotpSetup } from "../mfa/totp-setup";
import styles from "./account.module.css";

interface TwoStepSectionProps {
  t: Messages;
  flow: HostedFlow;
  enabled: boolean;
  recoveryCodesLeft: number;
  appName: string;
  email: string | null;
}

/**
 * Two-step verification on the account page: turn on an authenticator app, the
 * recovery codes (left, regenerate), and turn it off. The setup form and the
 * turn-off form stay in place whether MFA is on or off, so the codes just shown and
 * the "turned off" message survive the page refreshing behind them.
 */
export function TwoStepSection({ t, flow, enabled, recoveryCodesLeft, appName, email }: TwoStepSectionProps) {
  const copy = t.account.twoStep;
  const hidden = hostedFlowFields(flow);
  const idle = enabled ? (
    <>
      <h3 className={styles.subheading}>{copy.codesTitle}</h3>
      <p className={styles.text}>
        {format(copy.codesLeft, { count: recoveryCodesLeft })} {copy.regenerateLead}
      </p>
      <FormActions>
        <SubmitButton variant="secondary" name="intent" value="regenerate">
          {copy.regenerate}
        </SubmitButton>
      </FormActions>
    </>
  ) : (
    <FormActions>
      <SubmitButton name="intent" value="start">
        {copy.turnOn}
      </SubmitButton>
    </FormActions>
  );
  return (
    <Card title={copy.title} lead={<p>{enabled ? copy.onLead : copy.offLead}</p>} id="two-step">
      <TotpSetup
        action={twoStepAction}
        hidden={hidden}
        labels={totpSetupLabels(t, appName)}
        file={recoveryCodesFile(t, appName, email)}
        idle={idle}
        headingLevel={3}
        aria-label={copy.title}
      />
      <ActionForm action={turnOffTwoStepAction} hidden={hidden} aria-label={enabled ? copy.turnOffTitle : undefined}>
        {enabled ? (
          <>
            <h3 className={styles.subheading}>{copy.turnOffTitle}</h3>
            <p className={styles.text}>{copy.turnOffLead}</p>
            <TextField name="code" label={t.fields.totpCode} autoComplete="one-time-code" spellCheck={false} autoCapitalize="none" maxLength={32} required />
            <FormStatus />
            <FormActions>
              <SubmitButton variant="danger">{copy.turnOff}</SubmitButton>
            </FormActions>
          </>
        ) : (
          <FormStatus />
        )}
      </ActionForm>
    </Card>
  );
}
