import { requestDeletionAction } from "@/lib/hosted/actions/deletion";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { FormActions } from "@/components/ui/form-actions";

/** Type-to-confirm, then a one-time link by email: a moment's access to an open session cannot delete the account. */
export function DeleteAccountSection({ t, flow, email }: { t: Messages; flow: HostedFlow; email: string }) {
  const copy = t.account.delete;
  return (
    <Card title={copy.title} lead={<p>{copy.lead}</p>} tone="danger" id="delete-account">
      <ActionForm action={requestDeletionAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        <TextField name="confirmation" label={format(copy.confirmLabel, { email })} autoComplete="off" spellCheck={false} autoCapitalize="none" required />
        <FormStatus />
        <FormActions>
          <SubmitButton variant="danger">{copy.submit}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
