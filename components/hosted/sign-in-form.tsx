import { passkeySignInAction, passkeySignInOptionsAction } from "@/lib/hosted/actions/passkeys";
import { signInAction } from "@/lib/hosted/actions/sign-in";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedHref, hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";
import { AuthLinks } from "./auth-links";
import { PasskeyCeremony } from "./mfa/passkey-ceremony";

export function SignInForm({ t, flow }: { t: Messages; flow: HostedFlow }) {
  return (
    <>
      <ActionForm action={signInAction} hidden={hostedFlowFields(flow)}>
        {/* "webauthn" lets the browser offer the passkeys it holds for this site in the field's autofill (conditional UI). */}
        <TextField name="email" type="email" label={t.fields.email} autoComplete="username webauthn" spellCheck={false} autoCapitalize="none" required />
        <TextField name="password" type="password" label={t.fields.password} autoComplete="current-password" required />
        <FormStatus />
        <SubmitButton block>{t.signIn.submit}</SubmitButton>
      </ActionForm>
      <PasskeyCeremony
        kind="authenticate"
        options={passkeySignInOptionsAction}
        verify={passkeySignInAction}
        hidden={hostedFlowFields(flow)}
        label={t.signIn.withPasskey}
        labels={t.passkey}
        block
        autofill
        separator={t.signIn.or}
        explainWithoutScript={false}
      />
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
