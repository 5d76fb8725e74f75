import { signInAction } from "@/lib/hosted/actions/sign-in";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedHref, hostedFlowFields, type HostedFlow } from "@/lib/hosted/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";
import { AuthLinks } from "./auth-links";

export function SignInForm({ t, flow }: { t: Messages; flow: HostedFlow }) {
  return (
    <>
      <ActionForm action={signInAction} hidden={hostedFlowFields(flow)}>
        <TextField name="email" type="email" label={t.fields.email} autoComplete="email" spellCheck={false} autoCapitalize="none" required />
        <TextField name="password" type="password" label={t.fields.password} autoComplete="current-password" required />
        <FormStatus />
        <SubmitButton block>{t.signIn.submit}</SubmitButton>
      </ActionForm>
      <AuthLinks>
        <p>
          <TextLink href={hostedHref("/forgot-password", flow)}>{t.signIn.forgot}</TextLink>
        </p>
        <p>
          {t.signIn.noAccount} <TextLink href={hostedHref("/sign-up", flow)}>{t.signIn.createAccount}</TextLink>
        </p>
      </AuthLinks>
    </>
  );
}
