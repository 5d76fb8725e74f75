import type { ReactElement } from "react";
import type { EmailTemplateName } from "@/lib/email/types";
import AccountConnectedEmail from "./account-connected";
import AccountDeletionLinkEmail from "./account-deletion-link";
import AccountDisconnectedEmail from "./account-disconnected";
import AccountExistsEmail from "./account-exists";
import DataExportReadyEmail from "./data-export-ready";
import type { EmailCopy } from "./copy";
import EmailAddedEmail from "./email-added";
import EmailVerificationLinkEmail from "./email-verification-link";
import MfaDisabledEmail from "./mfa-disabled";
import MfaEnabledEmail from "./mfa-enabled";
import OrganizationInvitationEmail from "./organization-invitation";
import PasskeyAddedEmail from "./passkey-added";
import PasskeyRemovedEmail from "./passkey-removed";
import PasswordChangedEmail from "./password-changed";
import PasswordResetCodeEmail from "./password-reset-code";
import PrimaryEmailChangedEmail from "./primary-email-changed";
import RecoveryCodesRegeneratedEmail from "./recovery-codes-regenerated";
import SecondFactorsResetEmail from "./second-factors-reset";
import SignUpCodeEmail from "./sign-up-code";
import type { TemplateProps } from "./types";

export interface EmailTemplate<T extends EmailTemplateName> {
  component: (props: TemplateProps<T>) => ReactElement;
  subject: (copy: EmailCopy, props: TemplateProps<T>) => string;
}

/** Every template by name; the mapped type makes a missing template a compile error. */
export const EMAIL_TEMPLATES: { [T in EmailTemplateName]: EmailTemplate<T> } = {
  sign_up_code: { component: SignUpCodeEmail, subject: (copy, p) => copy.sign_up_code.subject(p.brand.applicationName) },
  account_exists: { component: AccountExistsEmail, subject: (copy, p) => copy.account_exists.subject(p.brand.applicationName) },
  password_reset_code: {
    component: PasswordResetCodeEmail,
    subject: (copy, p) => copy.password_reset_code.subject(p.brand.applicationName),
  },
  password_changed: { component: PasswordChangedEmail, subject: (copy, p) => copy.password_changed.subject(p.brand.applicationName) },
  email_added: { component: EmailAddedEmail, subject: (copy, p) => copy.email_added.subject(p.brand.applicationName) },
  primary_email_changed: {
    component: PrimaryEmailChangedEmail,
    subject: (copy, p) => copy.primary_email_changed.subject(p.brand.applicationName),
  },
  mfa_enabled: { component: MfaEnabledEmail, subject: (copy, p) => copy.mfa_enabled.subject(p.brand.applicationName) },
  mfa_disabled: { component: MfaDisabledEmail, subject: (copy, p) => copy.mfa_disabled.subject(p.brand.applicationName) },
  recovery_codes_regenerated: {
    component: RecoveryCodesRegeneratedEmail,
    subject: (copy, p) => copy.recovery_codes_regenerated.subject(p.brand.applicationName),
  },
  passkey_added: { component: PasskeyAddedEmail, subject: (copy, p) => copy.passkey_added.subject(p.brand.applicationName) },
  passkey_removed: { component: PasskeyRemovedEmail, subject: (copy, p) => copy.passkey_removed.subject(p.brand.applicationName) },
  second_factors_reset: { component: SecondFactorsResetEmail, subject: (copy, p) => copy.second_factors_reset.subject(p.brand.applicationName) },
  account_connected: {
    component: AccountConnectedEmail,
    subject: (copy, p) => copy.account_connected.subject(p.brand.applicationName, p.providerName),
  },
  account_disconnected: {
    component: AccountDisconnectedEmail,
    subject: (copy, p) => copy.account_disconnected.subject(p.brand.applicationName, p.providerName),
  },
  email_verification_link: {
    component: EmailVerificationLinkEmail,
    subject: (copy, p) => copy.email_verification_link.subject(p.brand.applicationName),
  },
  account_deletion_link: {
    component: AccountDeletionLinkEmail,
    subject: (copy, p) => copy.account_deletion_link.subject(p.brand.applicationName),
  },
  data_export_ready: {
    component: DataExportReadyEmail,
    subject: (copy, p) => copy.data_export_ready.subject(p.brand.applicationName),
  },
  organization_invitation: {
    component: OrganizationInvitationEmail,
    subject: (copy, p) =>
      copy.organization_invitation.subject({
        appName: p.brand.applicationName,
        organizationName: p.organizationName,
        inviterName: p.inviterName,
      }),
  },
};
