import { resendCodeAction, verifyCodeAction } from "@/lib/hosted/actions/verify-code";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { tenantFields, type Tenant } from "@/lib/hosted/tenant";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { ResendCodeForm } from "./resend-code-form";

/** The 6-digit code field (numeric keypad, one-time-code autofill) and the resend form below it. */
export function VerifyCodeForm({ t, tenant, cooldownSeconds }: { t: Messages; tenant: Tenant; cooldownSeconds: number }) {
  return (
    <>
      <ActionForm action={verifyCodeAction} hidden={tenantFields(tenant)}>
        <TextField
          name="code"
          label={t.fields.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={7}
          spellCheck={false}
          required
        />
        <FormStatus />
        <SubmitButton block>{t.verifyCode.submit}</SubmitButton>
      </ActionForm>
      <ResendCodeForm
        action={resendCodeAction}
        hidden={tenantFields(tenant)}
        initialSeconds={cooldownSeconds}
        labels={{ resend: t.verifyCode.resend, resendIn: t.verifyCode.resendIn, resendReady: t.verifyCode.resendReady }}
      />
    </>
  );
}
