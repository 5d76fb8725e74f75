import { verifySecondFactorAction } from "@/lib/hosted/actions/second-factor";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { SixDigitCodeField } from "./six-digit-code-field";

/** The code of the second-factor page: from the authenticator app (numeric keypad, one-time-code autofill) or a recovery code. */
export function SecondFactorForm({ t, flow, method }: { t: Messages; flow: HostedFlow; method: "totp" | "recovery" }) {
  return (
    <ActionForm action={verifySecondFactorAction} hidden={{ ...hostedFlowFields(flow), method }}>
      {method === "recovery" ? (
        <TextField name="code" label={t.fields.recoveryCode} autoComplete="off" spellCheck={false} autoCapitalize="none" maxLength={32} required />
      ) : (
        <SixDigitCodeField label={t.fields.totpCode} />
      )}
      <FormStatus />
      <SubmitButton block>{t.secondFactor.submit}</SubmitButton>
    </ActionForm>
  );
}
