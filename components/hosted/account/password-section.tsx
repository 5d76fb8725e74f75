import { changePasswordAction } from "@/lib/hosted/actions/password";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { NewPasswordField } from "../new-password-field";
import { FormActions } from "@/components/ui/form-actions";

interface PasswordSectionProps {
  t: Messages;
  flow: HostedFlow;
  hasPassword: boolean;
  email: string | null;
  minLength: number;
}

/** Change the password (current + new), or set a first one. */
export function PasswordSection({ t, flow, hasPassword, email, minLength }: PasswordSectionProps) {
  const copy = t.account.password;
  return (
    <Card title={copy.title} lead={<p>{hasPassword ? copy.changeLead : copy.setLead}</p>} id="password">
      <ActionForm action={changePasswordAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        {/* Not posted: tells password managers which account the new password belongs to. */}
        <input type="email" autoComplete="username" defaultValue={email ?? ""} hidden readOnly aria-hidden="true" tabIndex={-1} />
        {hasPassword ? <TextField name="currentPassword" type="password" label={t.fields.currentPassword} autoComplete="current-password" required /> : null}
        <NewPasswordField name="newPassword" label={t.fields.newPassword} t={t} minLength={minLength} />
        <FormStatus />
        <FormActions>
          <SubmitButton>{hasPassword ? copy.change : copy.set}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
