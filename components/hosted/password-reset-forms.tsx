import { forgotPasswordAction, resetPasswordAction } from "@/lib/hosted/actions/password-reset";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedHref, hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { NewPasswordField } from "./new-password-field";
import { SixDigitCodeField } from "./six-digit-code-field";
import { TextLink } from "@/components/ui/text-link";
import { AuthLinks } from "./auth-links";

export function ForgotPasswordForm({ t, flow }: { t: Messages; flow: HostedFlow }) {
  return (
    <>
      <ActionForm action={forgotPasswordAction} hidden={hostedFlowFields(flow)}>
        <TextField name="email" type="email" label={t.fields.email} autoComplete="email" spellCheck={false} autoCapitalize="none" required />
        <FormStatus />
        <SubmitButton block>{t.forgot.submit}</SubmitButton>
      </ActionForm>
      <AuthLinks>
        <p>
          <TextLink href={hostedHref("/sign-in", flow)}>{t.forgot.back}</TextLink>
        </p>
      </AuthLinks>
    </>
  );
}

interface ResetPasswordFormProps {
  t: Messages;
  flow: HostedFlow;
  email: string | null;
  minLength: number;
}

/** Email (prefilled from the previous step), the emailed code and the new password, which password managers offer to save. */
export function ResetPasswordForm({ t, flow, email, minLength }: ResetPasswordFormProps) {
  return (
    <>
      <ActionForm action={resetPasswordAction} hidden={hostedFlowFields(flow)}>
        <TextField
          name="email"
          type="email"
          label={t.fields.email}
          autoComplete="email"
          defaultValue={email ?? undefined}
          spellCheck={false}
          autoCapitalize="none"
          required
        />
        <SixDigitCodeField label={t.fields.code} />
        <NewPasswordField name="newPassword" label={t.fields.newPassword} t={t} minLength={minLength} />
        <FormStatus />
        <SubmitButton block>{t.reset.submit}</SubmitButton>
      </ActionForm>
      <AuthLinks>
        <p>
          <TextLink href={hostedHref("/forgot-password", flow)}>{t.reset.newCode}</TextLink>
        </p>
        <p>
          <TextLink href={hostedHref("/sign-in", flow)}>{t.forgot.back}</TextLink>
        </p>
      </AuthLinks>
    </>
  );
}
