import { deleteOrganizationAction, organizationSettingsAction } from "@/lib/hosted/actions/organizations";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";

interface SettingsSectionProps {
  t: Messages;
  flow: HostedFlow;
  appName: string;
  organization: { id: string; name: string; slug: string; logoUrl: string | null };
  /** Only an owner may delete (deleteOrganization): deleting removes the owners too. */
  canDelete: boolean;
}

/**
 * Shown only to members with org:settings:manage: the name, slug and logo form, and,
 * for owners, deletion behind typing the slug. The slug, not the name, is what must be typed: it
 * is short, plain ASCII and unique in the environment, so there is no doubt about
 * case, accents or spaces.
 */
export function SettingsSection({ t, flow, appName, organization, canDelete }: SettingsSectionProps) {
  const copy = t.organizations.page.settings;
  const hidden = { ...hostedFlowFields(flow), organizationId: organization.id };
  return (
    <>
      <Card title={copy.title} lead={<p>{format(copy.lead, { app: appName })}</p>} id="settings">
        <ActionForm action={organizationSettingsAction} hidden={hidden} aria-label={copy.title}>
          <TextField name="name" label={copy.name} autoComplete="organization" defaultValue={organization.name} required />
          <TextField
            name="slug"
            label={copy.slug}
            hint={copy.slugHint}
            defaultValue={organization.slug}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="none"
            required
          />
          <TextField
            name="logoUrl"
            label={copy.logoUrl}
            hint={copy.logoUrlHint}
            defaultValue={organization.logoUrl ?? ""}
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="none"
          />
          <FormStatus />
          <FormActions>
            <SubmitButton>{copy.save}</SubmitButton>
          </FormActions>
        </ActionForm>
      </Card>
      {canDelete ? (
        <Card title={copy.deleteTitle} lead={<p>{format(copy.deleteLead, { organization: organization.name })}</p>} tone="danger" id="delete-organization">
          <ActionForm action={deleteOrganizationAction} hidden={hidden} aria-label={copy.deleteTitle}>
            <TextField
              name="confirmation"
              label={format(copy.confirmLabel, { slug: organization.slug })}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              required
            />
            <FormStatus />
            <FormActions>
              <SubmitButton variant="danger">{copy.deleteSubmit}</SubmitButton>
            </FormActions>
          </ActionForm>
        </Card>
      ) : null}
    </>
  );
}
