import { operatorPasskeyOptionsAction, operatorPasskeyVerifyAction, operatorSecondFactorAction } from "@/lib/dashboard/actions/second-factor";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import type { PendingSecondStep } from "@/lib/dashboard/auth-second-step";
import { AuthLinks } from "@/components/hosted/auth-links";
import { PasskeyCeremony } from "@/components/hosted/mfa/passkey-ceremony";
import { SixDigitCodeField } from "@/components/hosted/six-digit-code-field";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";

export type SecondStepMethod = "totp" | "recovery" | "passkey";

/**
 * The second step of an operator's sign-in: the authenticator code (or a recovery
 * code), and a passkey where the operator has one, as the hosted second-factor page
 * offers them. The mfaToken stays in its cookie: the forms post only the factor.
 */
export function OperatorSecondFactorForm({ copy, pending, method }: { copy: DashboardCopy; pending: PendingSecondStep; method: SecondStepMethod }) {
  const { shared } = copy;
  const factors = pending.factors;
  return (
    <>
      {method === "passkey" ? null : (
        <ActionForm key={method} action={operatorSecondFactorAction} hidden={{ method }}>
          {method === "recovery" ? (
            <TextField name="code" label={shared.fields.recoveryCode} autoComplete="off" spellCheck={false} autoCapitalize="none" maxLength={32} required />
          ) : (
            <SixDigitCodeField label={shared.fields.totpCode} />
          )}
          <FormStatus />
          <SubmitButton block>{shared.secondFactor.submit}</SubmitButton>
        </ActionForm>
      )}
      {factors.includes("passkey") ? (
        <PasskeyCeremony
          kind="authenticate"
          options={operatorPasskeyOptionsAction}
          verify={operatorPasskeyVerifyAction}
          hidden={{}}
          label={shared.secondFactor.usePasskey}
          labels={shared.passkey}
          variant={method === "passkey" ? "primary" : "secondary"}
          block
          separator={method === "passkey" ? undefined : copy.t.signIn.or}
          explainWithoutScript={method === "passkey"}
        />
      ) : null}
      <AuthLinks>
        {method === "totp" && factors.includes("recovery_code") ? (
          <p>
            <TextLink href="/dashboard/sign-in/verify?method=recovery">{shared.secondFactor.useRecovery}</TextLink>
          </p>
        ) : null}
        {method === "recovery" ? (
          <p>
            <TextLink href="/dashboard/sign-in/verify">{shared.secondFactor.useTotp}</TextLink>
          </p>
        ) : null}
        <p>
          <TextLink href="/dashboard/sign-in">{shared.secondFactor.signInAgain}</TextLink>
        </p>
      </AuthLinks>
    </>
  );
}
