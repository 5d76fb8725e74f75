import { SecretOnce } from "@/components/dashboard/api-keys/secret-once";
import { ResultToast } from "@/components/dashboard/result-toast";
import { TypeToConfirmField } from "@/components/dashboard/type-to-confirm-field";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SelectField } from "@/components/ui/select-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import type { z } from "zod";
import type { applicationPageSchema } from "@/lib/applications/schemas";
import { addEnvironmentAction, createApplicationAction, deleteAction, renameAction } from "@/lib/dashboard/actions/applications";
import type { DashboardMessages } from "@/lib/dashboard/i18n/en";
import styles from "@/components/dashboard/api-keys/keys.module.css";

type Application = z.output<typeof applicationPageSchema>["items"][number];

function kindOptions(t: DashboardMessages) {
  return [
    { value: "development", label: t.environments.development },
    { value: "production", label: t.environments.production },
  ];
}

function RenameForm({ t, hidden, current }: { t: DashboardMessages; hidden: Record<string, string>; current: string }) {
  return (
    <details className={styles.details}>
      <summary>{t.applications.rename}</summary>
      <ActionForm action={renameAction} hidden={hidden} aria-label={`${t.applications.rename} ${current}`}>
        <TextField name="name" label={t.applications.newName} defaultValue={current} maxLength={100} autoComplete="off" />
        <FormStatus errorsOnly />
        <ResultToast />
        <FormActions>
          <SubmitButton variant="secondary">{t.applications.rename}</SubmitButton>
        </FormActions>
      </ActionForm>
    </details>
  );
}

function DeleteForm({ t, hidden, name, title, warning }: { t: DashboardMessages; hidden: Record<string, string>; name: string; title: string; warning: string }) {
  return (
    <details className={styles.details}>
      <summary>{title}</summary>
      <ActionForm action={deleteAction} hidden={hidden} aria-label={`${title}: ${name}`}>
        <p className={styles.muted}>{warning}</p>
        <TypeToConfirmField label={t.applications.typeToConfirm} expected={name} />
        <FormStatus errorsOnly />
        <ResultToast />
        <FormActions>
          <SubmitButton variant="danger">{t.applications.deleteSubmit}</SubmitButton>
        </FormActions>
      </ActionForm>
    </details>
  );
}

export function CreateApplicationCard({ t }: { t: DashboardMessages }) {
  return (
    <Card title={t.applications.create}>
      <ActionForm action={createApplicationAction} aria-label={t.applications.create}>
        <SecretOnce title={t.applications.secretOnce} copy={t.apiKeys.copy} copied={t.apiKeys.copied} />
        <TextField name="name" label={t.applications.name} maxLength={100} autoComplete="off" required />
        <TextField name="environmentName" label={t.applications.environmentName} defaultValue="Development" maxLength={100} autoComplete="off" />
        <SelectField name="kind" label={t.applications.kind} options={kindOptions(t)} defaultValue="development" />
        <FormStatus errorsOnly />
        <ResultToast />
        <FormActions>
          <SubmitButton>{t.applications.createSubmit}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}

/** One application: its environments with links to their keys, and the forms the role may use. */
export function ApplicationCard({ t, application, canWrite }: { t: DashboardMessages; application: Application; canWrite: boolean }) {
  return (
    <Card title={application.name}>
      <div className={styles.stack} data-testid="application">
        <ul className={`${styles.stack} ${styles.plainList}`} aria-label={t.applications.environmentsOf}>
          {application.environments.length === 0 ? <li className={styles.muted}>{t.applications.noEnvironments}</li> : null}
          {application.environments.map((environment) => (
            <li key={environment.id} className={styles.envRow} data-testid="environment">
              <div className={styles.envHeader}>
                <strong>{environment.name}</strong>
                <Badge tone={environment.kind === "production" ? "accent" : "neutral"}>{t.environments[environment.kind]}</Badge>
                <code className={styles.value}>{environment.frontendHosts[0] ?? ""}</code>
                <a href={`/dashboard/api-keys?env=${environment.id}`}>{t.applications.openKeys}</a>
              </div>
              {canWrite ? (
                <div className={styles.valueRow}>
                  <RenameForm t={t} hidden={{ environmentId: environment.id }} current={environment.name} />
                  <DeleteForm
                    t={t}
                    hidden={{ environmentId: environment.id }}
                    name={environment.name}
                    title={t.applications.deleteEnvironment}
                    warning={t.applications.deleteEnvironmentWarning}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {canWrite ? (
          <div className={styles.stack}>
            <details className={styles.details}>
              <summary>{t.applications.addEnvironment}</summary>
              <ActionForm action={addEnvironmentAction} hidden={{ applicationId: application.id }} aria-label={`${t.applications.addEnvironment}: ${application.name}`}>
                <SecretOnce title={t.applications.secretOnce} copy={t.apiKeys.copy} copied={t.apiKeys.copied} />
                <TextField name="name" label={t.applications.environment} maxLength={100} autoComplete="off" />
                <SelectField name="kind" label={t.applications.kind} options={kindOptions(t)} defaultValue="development" />
                <FormStatus errorsOnly />
                <ResultToast />
                <FormActions>
                  <SubmitButton variant="secondary">{t.applications.addSubmit}</SubmitButton>
                </FormActions>
              </ActionForm>
            </details>
            <RenameForm t={t} hidden={{ applicationId: application.id }} current={application.name} />
            <DeleteForm
              t={t}
              hidden={{ applicationId: application.id }}
              name={application.name}
              title={t.applications.deleteApplication}
              warning={t.applications.deleteApplicationWarning}
            />
          </div>
        ) : null}
      </div>
    </Card>
  );
}
