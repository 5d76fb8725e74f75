import { confirmEmailAddressAction } from "@/lib/hosted/actions/email-addresses";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedHref, hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextLink } from "@/components/ui/text-link";

/** The verification link's confirm button; once done, the form gives way to the outcome and the way on. */
export function ConfirmEmailForm({ t, flow, token }: { t: Messages; flow: HostedFlow; token: string }) {
  return (
    <ActionForm
      action={confirmEmailAddressAction}
      hidden={{ ...hostedFlowFields(flow), token }}
      aria-label={t.confirmEmail.title}
      successContent={
        <Alert tone="success" role="status">
          <p>
            {t.confirmEmail.done} <TextLink href={hostedHref("/account", flow)}>{t.confirmEmail.toAccount}</TextLink>
          </p>
        </Alert>
      }
    >
      <FormStatus />
      <SubmitButton block>{t.confirmEmail.submit}</SubmitButton>
    </ActionForm>
  );
}
