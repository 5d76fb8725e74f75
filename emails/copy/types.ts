/** The sentences of an email built around a 6-digit code. */
export interface CodeEmailCopy {
  subject: (appName: string) => string;
  preview: (appName: string) => string;
  heading: string;
  intro: (appName: string) => string;
  expiry: (duration: string) => string;
  notYou: string;
}

/** The sentences of an email built around a one-time link button. */
export interface LinkEmailCopy extends CodeEmailCopy {
  button: string;
}

/** The sentences of a security notice about the account's addresses. */
export interface AddressNoticeCopy {
  subject: (appName: string) => string;
  preview: (appName: string) => string;
  heading: string;
  intro: (appName: string, email: string, when: string) => string;
  ifYou: string;
  notYou: string;
  resetPassword: string;
}

/** The sentences of a security notice about the account's second factors. */
export interface SecurityNoticeCopy {
  subject: (appName: string) => string;
  preview: (appName: string) => string;
  heading: string;
  intro: (appName: string, when: string) => string;
  ifYou: string;
  notYou: string;
  resetPassword: string;
}

/** The sentences of a security notice about the account's connected provider accounts. */
export interface IdentityNoticeCopy {
  subject: (appName: string, providerName: string) => string;
  preview: (appName: string, providerName: string) => string;
  heading: (providerName: string) => string;
  intro: (appName: string, providerName: string, when: string) => string;
  ifYou: string;
  notYou: string;
  review: string;
}

/**
 * Every sentence the emails say, per locale. Templates hold layout only; a new
 * locale is one more file satisfying this interface, and the compiler lists what
 * it is missing.
 */
export interface EmailCopy {
  /** BCP 47 tag for `<html lang>` and for formatting dates. */
  languageTag: string;
  layout: {
    /** Footer line naming who sent the email. */
    sentBy: (appName: string) => string;
    /** Shown under every button, for mail clients that do not render buttons. */
    linkFallback: string;
  };
  /** Counted units, singular and plural, for "expires in 15 minutes". */
  units: {
    minutes: (count: number) => string;
    hours: (count: number) => string;
    days: (count: number) => string;
  };
  sign_up_code: CodeEmailCopy;
  account_exists: {
    subject: (appName: string) => string;
    preview: (appName: string) => string;
    heading: string;
    intro: (appName: string) => string;
    signIn: string;
    forgotPassword: string;
    resetPassword: string;
    notYou: string;
  };
  password_reset_code: CodeEmailCopy;
  password_changed: SecurityNoticeCopy;
  email_added: AddressNoticeCopy;
  primary_email_changed: AddressNoticeCopy;
  mfa_enabled: SecurityNoticeCopy;
  mfa_disabled: SecurityNoticeCopy;
  recovery_codes_regenerated: SecurityNoticeCopy;
  passkey_removed: SecurityNoticeCopy;
  second_factors_reset: SecurityNoticeCopy;
  passkey_added: {
    subject: (appName: string) => string;
    preview: (appName: string) => string;
    heading: string;
    intro: (appName: string, passkeyName: string, when: string) => string;
    ifYou: string;
    notYou: string;
    review: string;
  };
  account_connected: IdentityNoticeCopy;
  account_disconnected: IdentityNoticeCopy;
  email_verification_link: LinkEmailCopy;
  account_deletion_link: LinkEmailCopy;
  data_export_ready: LinkEmailCopy;
  organization_invitation: {
    subject: (invite: Invite) => string;
    preview: (invite: Invite) => string;
    heading: (organizationName: string) => string;
    intro: (invite: Invite) => string;
    role: (roleName: string) => string;
    button: string;
    expiry: (duration: string) => string;
    notYou: string;
  };
}

export interface Invite {
  appName: string;
  organizationName: string;
  inviterName: string | null;
}
