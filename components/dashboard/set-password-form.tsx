import { setOperatorPasswordAction } from "@/lib/dashboard/actions/set-password";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import { format } from "@/lib/hosted/i18n/messages";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";

/**
 * The one-time link's form. The address is a read-only field so a password manager
 * saves the new password under it; the token travels as a hidden field.
 */
export function SetPasswordForm({ copy, token, email, minLength }: { copy: DashboardCopy; token: string; email: string; minLength: number }) {
  const { t, shared } = copy;
  return (
    <ActionForm action={setOperatorPasswordAction} hidden={{ token }}>
      <TextField name="email" type="email" label={shared.fields.email} autoComplete="username" defaultValue={email} readOnly />
      <TextField
        name="password"
        type="password"
        label={shared.fields.newPassword}
        hint={format(t.setPassword.hint, { min: minLength })}
        autoComplete="new-password"
        minLength={minLength}
        required
      />
      <FormStatus />
      <SubmitButton block>{t.setPassword.submit}</SubmitButton>
    </ActionForm>
  );
}
