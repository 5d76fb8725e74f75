import type { EnvironmentSettings } from "@/lib/environments/settings";
import { signUpAction } from "@/lib/hosted/actions/sign-up";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedHref, hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { NewPasswordField } from "./new-password-field";
import { TextLink } from "@/components/ui/text-link";
import { AuthLinks } from "./auth-links";
import { CaptchaSlot } from "./captcha-slot";
import { LegalDocumentLinks } from "./legal-document-links";

interface SignUpFormProps {
  t: Messages;
  flow: HostedFlow;
  settings: Pick<EnvironmentSettings, "legal" | "signUp" | "passwordPolicy">;
}

export function SignUpForm({ t, flow, settings }: SignUpFormProps) {
  const { legal } = settings;
  return (
    <>
      <ActionForm action={signUpAction} hidden={hostedFlowFields(flow)}>
        <TextField name="name" label={t.fields.name} hint={t.signUp.nameHint} autoComplete="name" />
        <TextField name="email" type="email" label={t.fields.email} autoComplete="email" spellCheck={false} autoCapitalize="none" required />
        <NewPasswordField name="password" label={t.fields.password} t={t} minLength={settings.passwordPolicy.minLength} />
        {legal.requireConsent ? (
          <>
            <LegalDocumentLinks t={t} termsUrl={legal.termsUrl} privacyUrl={legal.privacyUrl} />
            <Checkbox name="legalConsentAccepted" label={t.signUp.consent} required />
          </>
        ) : null}
        <CaptchaSlot captcha={settings.signUp.captcha} t={t} />
        <FormStatus />
        <SubmitButton block>{t.signUp.submit}</SubmitButton>
      </ActionForm>
      <AuthLinks>
        <p>
          {t.signUp.haveAccount} <TextLink href={hostedHref("/sign-in", flow)}>{t.signUp.signIn}</TextLink>
        </p>
      </AuthLinks>
    </>
  );
}
