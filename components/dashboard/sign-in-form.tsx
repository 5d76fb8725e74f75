import { operatorSignInAction } from "@/lib/dashboard/actions/sign-in";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";

/**
 * Email and password, posted to next-auth's Credentials sign-in through a server
 * action; `next` is the dashboard page to go on to (the action checks it is one).
 */
export function OperatorSignInForm({ copy, next }: { copy: DashboardCopy; next?: string }) {
  const { t, shared } = copy;
  return (
    <ActionForm action={operatorSignInAction} hidden={next ? { next } : {}}>
      <TextField name="email" type="email" label={shared.fields.email} autoComplete="username" spellCheck={false} autoCapitalize="none" required />
      <TextField name="password" type="password" label={shared.fields.password} autoComplete="current-password" required />
      <FormStatus />
      <SubmitButton block>{t.signIn.submit}</SubmitButton>
    </ActionForm>
  );
}
