import { continueOAuthSignUpAction } from "@/lib/hosted/actions/oauth-continuation";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { LegalDocumentLinks } from "./legal-document-links";

interface OAuthConsentFormProps {
  t: Messages;
  flow: HostedFlow;
  token: string;
  termsUrl: string | null;
  privacyUrl: string | null;
}

/** Accept the terms to finish an OAuth sign-up (POST /_svc/auth/signup/continue through the hosted action). */
export function OAuthConsentForm({ t, flow, token, termsUrl, privacyUrl }: OAuthConsentFormProps) {
  return (
    <ActionForm action={continueOAuthSignUpAction} hidden={{ ...hostedFlowFields(flow), token }}>
      <LegalDocumentLinks t={t} termsUrl={termsUrl} privacyUrl={privacyUrl} />
      <Checkbox name="accept" label={t.consent.checkbox} required />
      <FormStatus />
      <SubmitButton block>{t.oauth.continueSubmit}</SubmitButton>
    </ActionForm>
  );
}
