import { acceptTermsAction } from "@/lib/hosted/actions/gates";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { LegalDocumentLinks } from "./legal-document-links";

interface ConsentFormProps {
  t: Messages;
  flow: HostedFlow;
  termsUrl: string | null;
  privacyUrl: string | null;
}

export function ConsentForm({ t, flow, termsUrl, privacyUrl }: ConsentFormProps) {
  return (
    <ActionForm action={acceptTermsAction} hidden={hostedFlowFields(flow)}>
      <LegalDocumentLinks t={t} termsUrl={termsUrl} privacyUrl={privacyUrl} />
      <Checkbox name="accept" label={t.consent.checkbox} required />
      <FormStatus />
      <SubmitButton block>{t.consent.submit}</SubmitButton>
    </ActionForm>
  );
}
