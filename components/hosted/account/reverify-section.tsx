import { reverifyAction } from "@/lib/hosted/actions/reverify";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/hosted/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { FormActions } from "@/components/ui/form-actions";

/** Shown when a sensitive change needs a recent sign-in: the password again, then back to the account page. */
export function ReverifySection({ t, flow, email }: { t: Messages; flow: HostedFlow; email: string | null }) {
  const copy = t.account.reverify;
  return (
    <Card title={copy.title} lead={<p>{copy.lead}</p>} id="reverify">
      <ActionForm action={reverifyAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        <input type="email" autoComplete="username" defaultValue={email ?? ""} hidden readOnly aria-hidden="true" tabIndex={-1} />
        <TextField name="password" type="password" label={t.fields.password} autoComplete="current-password" required />
        <FormStatus />
        <FormActions>
          <SubmitButton>{copy.submit}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
