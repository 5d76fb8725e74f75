import { recoveryCodesFile, totpSetupLabels } from "@/components/hosted/mfa/setup-labels";
import { PasskeyCeremony } from "@/components/hosted/mfa/passkey-ceremony";
import { TotpSetup } from "@/components/hosted/mfa/totp-setup";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import {
  operatorPasskeyListAction,
  operatorPasskeyRegistrationOptionsAction,
  operatorRegisterPasskeyAction,
  operatorTurnOffTwoStepAction,
  operatorTwoStepAction,
} from "@/lib/dashboard/actions/account";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import type { OperatorSecurity } from "@/lib/dashboard/operator-account";
import { format } from "@/lib/hosted/i18n/messages";
import account from "@/components/hosted/account/account.module.css";

/**
 * The authenticator app of the operator's account, as an end-user's account page
 * shows it: set up (scan, confirm with a code, the recovery codes once), new
 * recovery codes, turn off with a current code. Each step is a form post, so it
 * works without JavaScript.
 */
export function AuthenticatorSection({ copy, security }: { copy: DashboardCopy; security: OperatorSecurity }) {
  const { t, shared } = copy;
  const on = security.status.totp;
  const idle = on ? (
    <>
      <h3 className={account.subheading}>{shared.account.twoStep.codesTitle}</h3>
      <p className={account.text}>
        {format(shared.account.twoStep.codesLeft, { count: security.status.recoveryCodesLeft })} {shared.account.twoStep.regenerateLead}
      </p>
      <FormActions>
        <SubmitButton variant="secondary" name="intent" value="regenerate">
          {shared.account.twoStep.regenerate}
        </SubmitButton>
      </FormActions>
    </>
  ) : (
    <FormActions>
      <SubmitButton name="intent" value="start">
        {t.account.totpStart}
      </SubmitButton>
    </FormActions>
  );
  return (
    <Card title={t.account.totpTitle} lead={<p>{on ? t.account.totpOnLead : t.account.totpOffLead}</p>} id="authenticator">
      <TotpSetup
        action={operatorTwoStepAction}
        hidden={{}}
        labels={totpSetupLabels(shared, security.applicationName)}
        file={recoveryCodesFile(shared, security.applicationName, security.operator.email)}
        idle={idle}
        headingLevel={3}
        aria-label={t.account.totpTitle}
      />
      <ActionForm action={operatorTurnOffTwoStepAction} aria-label={on ? t.account.turnOffTitle : undefined}>
        {on ? (
          <>
            <h3 className={account.subheading}>{t.account.turnOffTitle}</h3>
            <p className={account.text}>{t.account.turnOffLead}</p>
            <TextField name="code" label={shared.fields.totpCode} autoComplete="one-time-code" spellCheck={false} autoCapitalize="none" maxLength={32} required />
            <FormStatus />
            <FormActions>
              <SubmitButton variant="danger">{t.account.turnOff}</SubmitButton>
            </FormActions>
          </>
        ) : (
          <FormStatus />
        )}
      </ActionForm>
    </Card>
  );
}

/**
 * The operator's passkeys: remove one (one form around the list, each row posting
 * its own intent), and add one, a WebAuthn ceremony on the dashboard's RP ID
 * (PUBLIC_URL's host) that needs JavaScript.
 */
export function PasskeysSection({ copy, security, dates }: { copy: DashboardCopy; security: OperatorSecurity; dates: Intl.DateTimeFormat }) {
  const { t, shared } = copy;
  const labels = shared.account.passkeys;
  return (
    <Card title={t.account.passkeysTitle} lead={<p>{t.account.passkeysLead}</p>} id="passkeys">
      <ActionForm action={operatorPasskeyListAction} aria-label={t.account.passkeysTitle}>
        {security.passkeys.length === 0 ? <p className={account.text}>{t.account.passkeysNone}</p> : null}
        <ul className={account.list} hidden={security.passkeys.length === 0}>
          {security.passkeys.map((passkey) => (
            <li key={passkey.id} className={account.item} data-testid="passkey">
              <div className={account.itemMain}>
                <span className={account.itemTitle}>
                  {passkey.name} {passkey.backedUp ? <Badge>{labels.synced}</Badge> : null}
                </span>
                <span className={account.meta}>
                  {format(labels.addedAt, { date: dates.format(new Date(passkey.createdAt)) })} ·{" "}
                  {passkey.lastUsedAt ? format(labels.lastUsed, { date: dates.format(new Date(passkey.lastUsedAt)) }) : labels.neverUsed}
                </span>
              </div>
              <div className={account.itemActions}>
                <SubmitButton variant="quiet" name="intent" value={`remove:${passkey.id}`} aria-label={format(labels.removeLabel, { name: passkey.name })}>
                  {labels.remove}
                </SubmitButton>
              </div>
            </li>
          ))}
        </ul>
        <FormStatus />
      </ActionForm>
      <h3 className={account.subheading}>{t.account.passkeyAdd}</h3>
      <PasskeyCeremony
        kind="register"
        options={operatorPasskeyRegistrationOptionsAction}
        verify={operatorRegisterPasskeyAction}
        hidden={{}}
        label={t.account.passkeyAdd}
        labels={shared.passkey}
      >
        <TextField name="name" label={shared.fields.passkeyName} hint={labels.nameHint} maxLength={100} autoComplete="off" />
      </PasskeyCeremony>
    </Card>
  );
}
