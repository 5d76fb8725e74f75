import { ResultToast } from "@/components/dashboard/result-toast";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import {
  createSecretKeyAction,
  replaceAllowedOriginsAction,
  replaceFrontendHostsAction,
  revokeSecretKeyAction,
  rotateSigningKeyAction,
} from "@/lib/dashboard/actions/api-keys";
import type { DashboardMessages } from "@/lib/dashboard/i18n/en";
import type { z } from "zod";
import type { secretKeyListSchema } from "@/lib/environments/secret-keys";
import type { signingKeyListSchema } from "@/lib/environments/signing-key-list";
import { CopyButton } from "./copy-button";
import { LinesField } from "./lines-field";
import { SecretOnce } from "./secret-once";
import styles from "./keys.module.css";

interface SectionProps {
  t: DashboardMessages;
  environmentId: string;
  /** The operator's role may change things (write) / see a new secret (revealSecrets). */
  canWrite: boolean;
  canRevealSecrets: boolean;
  formatDate: (iso: string) => string;
}

export function PublishableKeyCard({ t, publishableKey }: { t: DashboardMessages; publishableKey: string }) {
  return (
    <Card title={t.apiKeys.publishableKey} lead={<p>{t.apiKeys.publishableHint}</p>}>
      <div className={styles.valueRow}>
        <code className={styles.value} data-testid="publishable-key">
          {publishableKey}
        </code>
        <CopyButton value={publishableKey} label={t.apiKeys.copy} copiedLabel={t.apiKeys.copied} />
      </div>
    </Card>
  );
}

export function SecretKeysCard({ t, environmentId, canWrite, canRevealSecrets, formatDate, keys }: SectionProps & { keys: z.output<typeof secretKeyListSchema>["items"] }) {
  const copy = t.apiKeys;
  return (
    <Card title={copy.secretKeys} lead={<p>{copy.secretHint}</p>}>
      <div className={styles.stack}>
        {keys.length === 0 ? (
          <p className={styles.muted}>{copy.noKeys}</p>
        ) : (
          <div className={styles.tableWrap} tabIndex={0}>
            <table className={styles.table} aria-label={copy.secretKeys}>
              <thead>
                <tr>
                  <th scope="col">{copy.prefix}</th>
                  <th scope="col">{copy.label}</th>
                  <th scope="col">{copy.createdAt}</th>
                  <th scope="col">{copy.lastUsed}</th>
                  <th scope="col">{copy.status}</th>
                  {canWrite ? <th scope="col"><span className={styles.srOnly}>{copy.revoke}</span></th> : null}
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id} data-testid="secret-key-row">
                    <td>
                      <code>{key.displayPrefix}</code>
                    </td>
                    <td>{key.label ?? ""}</td>
                    <td>{formatDate(key.createdAt)}</td>
                    <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : copy.never}</td>
                    <td>{key.revokedAt ? <Badge tone="neutral">{copy.revoked}</Badge> : <Badge tone="accent">{copy.active}</Badge>}</td>
                    {canWrite ? (
                      <td>
                        {/* The form stays once the key is revoked, so its toast outlives the re-rendered row. */}
                        <ActionForm action={revokeSecretKeyAction} hidden={{ env: environmentId, keyId: key.id }} aria-label={`${copy.revoke} ${key.displayPrefix}`}>
                          {key.revokedAt ? null : (
                            <details className={styles.details}>
                              <summary>{copy.revoke}</summary>
                              <p className={styles.muted}>{copy.revokeConfirm}</p>
                              <FormStatus errorsOnly />
                              <FormActions>
                                <SubmitButton variant="danger">{copy.revoke}</SubmitButton>
                              </FormActions>
                            </details>
                          )}
                          <ResultToast />
                        </ActionForm>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {canRevealSecrets ? (
          <ActionForm action={createSecretKeyAction} hidden={{ env: environmentId }} aria-label={copy.createSubmit}>
            <SecretOnce title={copy.secretOnce} copy={copy.copy} copied={copy.copied} />
            <TextField name="label" label={copy.label} hint={copy.labelHint} maxLength={100} autoComplete="off" />
            <FormStatus errorsOnly />
            <ResultToast />
            <FormActions>
              <SubmitButton>{copy.createSubmit}</SubmitButton>
            </FormActions>
          </ActionForm>
        ) : null}
      </div>
    </Card>
  );
}

export function SigningKeysCard({ t, environmentId, canWrite, formatDate, keys }: SectionProps & { keys: z.output<typeof signingKeyListSchema>["items"] }) {
  const copy = t.apiKeys;
  return (
    <Card title={copy.signingKeys} lead={<p>{copy.signingHint}</p>}>
      <div className={styles.stack}>
        <div className={styles.tableWrap} tabIndex={0}>
          <table className={styles.table} aria-label={copy.signingKeys}>
            <thead>
              <tr>
                <th scope="col">{copy.kid}</th>
                <th scope="col">{copy.algorithm}</th>
                <th scope="col">{copy.createdAt}</th>
                <th scope="col">{copy.status}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.kid} data-testid="signing-key-row">
                  <td>
                    <code>{key.kid}</code>
                  </td>
                  <td>{key.alg}</td>
                  <td>{formatDate(key.createdAt)}</td>
                  <td>{key.status === "active" ? <Badge tone="accent">{copy.active}</Badge> : <Badge tone="neutral">{copy.retired}</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {canWrite ? (
          <ActionForm action={rotateSigningKeyAction} hidden={{ env: environmentId }} aria-label={copy.rotate}>
            <FormStatus errorsOnly />
            <ResultToast />
            <FormActions>
              <SubmitButton variant="secondary">{copy.rotate}</SubmitButton>
            </FormActions>
          </ActionForm>
        ) : null}
      </div>
    </Card>
  );
}

/** An editor of one entry a line (frontend hosts, allowed origins); read-only for a role that may not write. */
export function LinesCard({
  title,
  hint,
  name,
  entries,
  submit,
  action,
  environmentId,
  canWrite,
}: {
  title: string;
  hint: string;
  name: string;
  entries: string[];
  submit: string;
  action: typeof replaceFrontendHostsAction | typeof replaceAllowedOriginsAction;
  environmentId: string;
  canWrite: boolean;
}) {
  return (
    <Card title={title}>
      <ActionForm action={action} hidden={{ env: environmentId }} aria-label={title}>
        <LinesField name={name} label={title} hint={hint} defaultValue={entries.join("\n")} readOnly={!canWrite} />
        <FormStatus errorsOnly />
        <ResultToast />
        {canWrite ? (
          <FormActions>
            <SubmitButton>{submit}</SubmitButton>
          </FormActions>
        ) : null}
      </ActionForm>
    </Card>
  );
}
