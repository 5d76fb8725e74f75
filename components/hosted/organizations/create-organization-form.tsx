import { createOrganizationAction } from "@/lib/hosted/actions/organizations";
import { hostedFlowFields, hostedHref, type HostedFlow } from "@/lib/flows/hosted-flow";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";

/** `/organizations/new`: a name, and the caller becomes the owner; organizations turned off say so instead. */
export function CreateOrganizationForm({ t, flow, enabled }: { t: Messages; flow: HostedFlow; enabled: boolean }) {
  const copy = t.organizations.create;
  return (
    <Card level={1} title={copy.title} lead={<p>{copy.lead}</p>}>
      {enabled ? (
        <ActionForm action={createOrganizationAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
          <TextField name="name" label={copy.name} autoComplete="organization" required />
          <FormStatus />
          <FormActions>
            <SubmitButton>{copy.submit}</SubmitButton>
          </FormActions>
        </ActionForm>
      ) : (
        <Alert tone="info">{t.organizations.errors.organizationsOff}</Alert>
      )}
      <TextLink href={hostedHref("/account", flow)}>{copy.back}</TextLink>
    </Card>
  );
}
