import { setActiveOrganizationAction } from "@/lib/hosted/actions/organizations";
import { hostedFlowFields, hostedHref, type HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextLink } from "@/components/ui/text-link";
import styles from "../account/account.module.css";

interface OrganizationsSectionProps {
  t: Messages;
  flow: HostedFlow;
  appName: string;
  organizations: { id: string; name: string; role: string; roleName: string | null }[];
  activeOrganizationId: string | null;
}

/**
 * The account page's organization switcher: the user's organizations, each named by
 * a link to its page, with "make active" (one form: each button posts its own
 * `organizationId`, "use no organization" an empty one), and "create an organization".
 */
export function OrganizationsSection({ t, flow, appName, organizations, activeOrganizationId: sessionActive }: OrganizationsSectionProps) {
  const copy = t.organizations.switcher;
  // The session may still name an organization the user has since left: it is then not active (as in the boot probe).
  const activeOrganizationId = organizations.some((organization) => organization.id === sessionActive) ? sessionActive : null;
  return (
    <Card title={copy.title} lead={<p>{format(copy.lead, { app: appName })}</p>} id="organizations">
      {organizations.length === 0 ? (
        <p>{copy.none}</p>
      ) : (
        <ActionForm action={setActiveOrganizationAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
          <ul className={styles.list}>
            {organizations.map((organization) => {
              const active = organization.id === activeOrganizationId;
              return (
                <li key={organization.id} className={styles.item} data-testid="organization" data-active={active || undefined}>
                  <div className={styles.itemMain}>
                    <span className={styles.itemTitle}>
                      <TextLink href={hostedHref(`/organizations/${organization.id}`, flow)}>{organization.name}</TextLink>{" "}
                      {active ? <Badge tone="accent">{copy.active}</Badge> : null}
                    </span>
                    <span className={styles.meta}>{format(copy.role, { role: organization.roleName ?? organization.role })}</span>
                  </div>
                  <div className={styles.itemActions}>
                    {!active ? (
                      <SubmitButton
                        variant="quiet"
                        name="organizationId"
                        value={organization.id}
                        aria-label={format(copy.makeActiveLabel, { organization: organization.name })}
                      >
                        {copy.makeActive}
                      </SubmitButton>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          <FormStatus />
          {activeOrganizationId ? (
            <FormActions>
              <SubmitButton variant="secondary" name="organizationId" value="">
                {copy.clearActive}
              </SubmitButton>
            </FormActions>
          ) : (
            <p className={styles.meta}>{copy.noneActive}</p>
          )}
        </ActionForm>
      )}
      <TextLink href={hostedHref("/organizations/new", flow)}>{copy.create}</TextLink>
    </Card>
  );
}
