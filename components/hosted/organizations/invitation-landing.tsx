import { acceptInvitationAction, signUpFromInvitationAction } from "@/lib/hosted/actions/organizations";
import { hostedFlowFields, hostedHref, type HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import type { InvitationLanding as Landing, InvitationViewer } from "@/lib/hosted/invitation-landing";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";
import { NewPasswordField } from "../new-password-field";
import { SignOutForm } from "../sign-out-form";
import styles from "../account/account.module.css";

interface InvitationLandingProps {
  t: Messages;
  flow: HostedFlow;
  token: string;
  landing: Landing | null;
  viewer: InvitationViewer;
  minPasswordLength: number;
}

/**
 * `/invitations/accept?token=`: what the invitation is (organization, role, address)
 * and the one next step that works for whoever opened it. Every step is a plain form
 * or link, so it works without JavaScript.
 */
export function InvitationLanding({ t, flow, token, landing, viewer, minPasswordLength }: InvitationLandingProps) {
  const copy = t.organizations.invitation;
  if (!landing) {
    return (
      <Card level={1} title={copy.notFoundTitle} lead={<p>{copy.notFound}</p>}>
        <TextLink href={hostedHref("/account", flow)}>{copy.goToAccount}</TextLink>
      </Card>
    );
  }
  if (landing.status !== "pending") {
    const ended = {
      expired: { title: copy.expiredTitle, message: copy.expired },
      revoked: { title: copy.revokedTitle, message: t.errors.invitation_revoked },
      accepted: { title: copy.acceptedTitle, message: t.errors.invitation_already_accepted },
    }[landing.status];
    return (
      <Card level={1} title={ended.title} lead={<p>{format(copy.lead, { organization: landing.organizationName, role: landing.roleName })}</p>}>
        <Alert tone="info">{ended.message}</Alert>
        <TextLink href={hostedHref("/account", flow)}>{copy.goToAccount}</TextLink>
      </Card>
    );
  }
  // Back here after signing in (or switching account): the page's own address, keeping the publishable key.
  const here = hostedHref("/invitations/accept", { publishableKey: flow.publishableKey, redirectUrl: null }, { token });
  const hidden = { ...hostedFlowFields(flow), token };
  const lead = (
    <>
      <p>{format(copy.lead, { organization: landing.organizationName, role: landing.roleName })}</p>
      <p>{format(copy.invitedAddress, { email: landing.email })}</p>
    </>
  );
  if (viewer.kind === "invitee") {
    return (
      <Card level={1} title={format(copy.title, { organization: landing.organizationName })} lead={lead}>
        <ActionForm action={acceptInvitationAction} hidden={hidden}>
          <FormStatus />
          <FormActions>
            <SubmitButton>{copy.accept}</SubmitButton>
          </FormActions>
        </ActionForm>
      </Card>
    );
  }
  if (viewer.kind === "otherAccount") {
    return (
      <Card level={1} title={copy.wrongAccountTitle} lead={lead}>
        <Alert tone="info">{format(copy.wrongAccount, { current: viewer.current, email: landing.email })}</Alert>
        <SignOutForm flow={{ ...flow, redirectUrl: here }} label={copy.switchAccount} variant="primary" />
      </Card>
    );
  }
  return (
    <>
      <Card level={1} title={format(copy.title, { organization: landing.organizationName })} lead={lead}>
        <h2 className={styles.subheading}>{format(copy.signInTitle, { email: landing.email })}</h2>
        <ButtonLink href={hostedHref("/sign-in", { ...flow, redirectUrl: here })} variant="secondary">
          {copy.signIn}
        </ButtonLink>
      </Card>
      {/* Only the emailed link proves the mailbox: an API token (an app's own email) leads to sign-in only. */}
      {landing.canCreateAccount && (
        <Card title={copy.createTitle} lead={<p>{format(copy.createLead, { email: landing.email })}</p>}>
          <ActionForm action={signUpFromInvitationAction} hidden={hidden} aria-label={copy.createTitle}>
            <TextField name="name" label={t.fields.name} autoComplete="name" hint={t.signUp.nameHint} />
            <NewPasswordField name="password" label={t.fields.password} t={t} minLength={minPasswordLength} />
            <FormStatus />
            <FormActions>
              <SubmitButton>{copy.createSubmit}</SubmitButton>
            </FormActions>
          </ActionForm>
        </Card>
      )}
    </>
  );
}
