import { confirmDeletionAction } from "@/lib/hosted/actions/deletion";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { tenantFields, type Tenant } from "@/lib/hosted/tenant";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";

/** The deletion link's confirm button; once done, the form gives way to the confirmation. */
export function ConfirmDeletionForm({ t, tenant, token }: { t: Messages; tenant: Tenant; token: string }) {
  return (
    <ActionForm
      action={confirmDeletionAction}
      hidden={{ ...tenantFields(tenant), token }}
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
