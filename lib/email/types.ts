/** Locales every email and hosted page is written in. */
export type Locale = "en" | "da";

/** A security notice about the account's addresses: which address, and when. */
export interface AddressNotice {
  email: string;
  occurredAt: string;
  resetPasswordUrl: string;
}

/** A security notice about the account's second factors: when it happened, and a way back in. */
export interface SecurityNotice {
  occurredAt: string;
  resetPasswordUrl: string;
}

/** A security notice about the account's connected provider accounts: which provider, when, and where to review them. */
export interface IdentityNotice {
  providerName: string;
  occurredAt: string;
  accountUrl: string;
}

/** Each email Gatehouse sends, with the values its template needs. */
export interface EmailTemplates {
  /** 6-digit code that confirms a sign-up. */
  sign_up_code: { code: string; expiresInMinutes: number };
  /** Sent instead of a code when someone signs up with an address that already has an account. */
  account_exists: { signInUrl: string; resetPasswordUrl: string };
  /** 6-digit code for a password reset. */
  password_reset_code: { code: string; expiresInMinutes: number };
  /** Notice after a password reset or change. */
  password_changed: { changedAt: string; resetPasswordUrl: string };
  /** Notice to the primary address, sent with the change: another address was added to the account. */
  email_added: AddressNotice;
  /** Notice to the old and the new primary address, sent with the change: `email` is now the primary one. */
  primary_email_changed: AddressNotice;
  /** Notice to the primary address, sent with the change: two-step verification was turned on. */
  mfa_enabled: SecurityNotice;
  /** Notice to the primary address, sent with the change: two-step verification was turned off. */
  mfa_disabled: SecurityNotice;
  /** Notice to the primary address, sent with the change: new recovery codes replaced the old ones. */
  recovery_codes_regenerated: SecurityNotice;
  /** Notice to the primary address, sent with the change: a passkey was removed from the account. */
  passkey_removed: SecurityNotice;
  /** Notice to the primary address, sent with the change: an operator reset every second factor. */
  second_factors_reset: SecurityNotice;
  /** Notice to the primary address, sent with the change: a passkey was added to the account. */
  passkey_added: { passkeyName: string; occurredAt: string; accountUrl: string };
  /** Notice to the primary address, sent with the change: a provider account (Google, GitHub…) can now sign in to the account. */
  account_connected: IdentityNotice;
  /** Notice to the primary address, sent with the change: a provider account can no longer sign in to the account. */
  account_disconnected: IdentityNotice;
  /** Link that verifies an added email address. */
  email_verification_link: { url: string; expiresInMinutes: number };
  /** One-time link that confirms account deletion. */
  account_deletion_link: { url: string; expiresInMinutes: number };
  /** The one-time download link for a copy of the user's data. */
  data_export_ready: { url: string; expiresInMinutes: number };
  /** Invitation to join an organization. */
  organization_invitation: { organizationName: string; inviterName: string | null; roleName: string; url: string; expiresInDays: number };
}

export type EmailTemplateName = keyof EmailTemplates;

export interface OutgoingEmail<T extends EmailTemplateName = EmailTemplateName> {
  template: T;
  to: string;
  locale: Locale;
  /** The environment the email is about; branding (application name, accent colour) comes from its settings. */
  environment: { id: string; applicationName: string; accentColor: string | null; logoUrl: string | null };
  props: EmailTemplates[T];
}
