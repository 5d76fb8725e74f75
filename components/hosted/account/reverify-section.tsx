import type { ConnectLink } from "@/lib/identities/connect-links";
import { passkeyReverifyAction, passkeyReverifyOptionsAction } from "@/lib/hosted/actions/passkeys";
import { reverifyAction } from "@/lib/hosted/actions/reverify";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { FormActions } from "@/components/ui/form-actions";
import { PasskeyCeremony } from "../mfa/passkey-ceremony";
import { SixDigitCodeField } from "../six-digit-code-field";

interface ReverifySectionProps {
  t: Messages;
  flow: HostedFlow;
  email: string | null;
  /** The factors the user can prove: the form asks for what a sign-in would. */
  factors: { password: boolean; totp: boolean; passkeys: number };
  /** Connected provider accounts to confirm with (none for a user with two-step verification). */
  providers: ConnectLink[];
}

/**
 * Shown when a sensitive change needs a recent sign-in: the password again (with
 * a current authenticator code for a user who has turned two-step verification
 * on), a passkey, or a sign-in with a connected provider account (a user without
 * a password has nothing else); then back to the account page.
 */
export function ReverifySection({ t, flow, email, factors, providers }: ReverifySectionProps) {
  const copy = t.account.reverify;
  const passkeyOnly = !factors.password && !factors.totp && factors.passkeys > 0;
  const providerOnly = !factors.password && !factors.totp && factors.passkeys === 0 && providers.length > 0;
  const askPassword = factors.password || (!factors.totp && !passkeyOnly && !providerOnly);
  const lead = passkeyOnly
    ? copy.leadPasskeyOnly
    : providerOnly
      ? copy.leadProviderOnly
      : factors.totp
        ? askPassword
          ? copy.leadWithCode
          : copy.leadCodeOnly
        : copy.lead;
  return (
    <Card title={copy.title} lead={<p>{lead}</p>} id="reverify">
      {passkeyOnly || providerOnly ? null : (
        <ActionForm action={reverifyAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
          <input type="email" autoComplete="username" defaultValue={email ?? ""} hidden readOnly aria-hidden="true" tabIndex={-1} />
          {askPassword ? <TextField name="password" type="password" label={t.fields.password} autoComplete="current-password" required /> : null}
          {factors.totp ? <SixDigitCodeField label={t.fields.totpCode} /> : null}
          <FormStatus />
          <FormActions>
            <SubmitButton>{copy.submit}</SubmitButton>
          </FormActions>
        </ActionForm>
      )}
      {factors.passkeys > 0 ? (
        <PasskeyCeremony
          kind="authenticate"
          options={passkeyReverifyOptionsAction}
          verify={passkeyReverifyAction}
          hidden={hostedFlowFields(flow)}
          label={copy.withPasskey}
          labels={t.passkey}
          separator={passkeyOnly ? undefined : t.signIn.or}
          explainWithoutScript={passkeyOnly}
        />
      ) : null}
      {providers.length > 0 ? (
        <FormActions>
          {providers.map((provider) => (
            <ButtonLink key={provider.providerId} href={provider.href} variant="secondary">
              {format(copy.withProvider, { provider: provider.name })}
            </ButtonLink>
          ))}
        </FormActions>
      ) : null}
    </Card>
  );
}
