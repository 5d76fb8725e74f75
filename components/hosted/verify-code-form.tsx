import { resendCodeAction, verifyCodeAction } from "@/lib/hosted/actions/verify-code";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { ResendCodeForm } from "./resend-code-form";
import { SixDigitCodeField } from "./six-digit-code-field";

/** The 6-digit code field (numeric keypad, one-time-code autofill) and the resend form below it. */
export function VerifyCodeForm({ t, flow, cooldownSeconds }: { t: Messages; flow: HostedFlow; cooldownSeconds: number }) {
  return (
    <>
      <ActionForm action={verifyCodeAction} hidden={hostedFlowFields(flow)}>
        <SixDigitCodeField label={t.fields.code} />
        <FormStatus />
        <SubmitButton block>{t.verifyCode.submit}</SubmitButton>
      </ActionForm>
      <ResendCodeForm
        action={resendCodeAction}
        hidden={hostedFlowFields(flow)}
        initialSeconds={cooldownSeconds}
        labels={{ resend: t.verifyCode.resend, resendIn: t.verifyCode.resendIn, resendReady: t.verifyCode.resendReady }}
      />
    </>
  );
}
