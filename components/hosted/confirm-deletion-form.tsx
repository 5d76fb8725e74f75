import { confirmDeletionAction } from "@/lib/hosted/actions/deletion";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";

/** The deletion link's confirm button; once done, the form gives way to the confirmation. */
export function ConfirmDeletionForm({ t, flow, token }: { t: Messages; flow: HostedFlow; token: string }) {
  return (
    <ActionForm
      action={confirmDeletionAction}
      hidden={{ ...hostedFlowFields(flow), token }}
      successContent={
        <Alert tone="success" role="status">
          {t.deleteConfirm.done}
        </Alert>
      }
    >
      <FormStatus />
      <SubmitButton variant="danger" block>
        {t.deleteConfirm.submit}
      </SubmitButton>
    </ActionForm>
  );
}
