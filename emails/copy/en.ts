import type { EmailCopy, Invite } from "./types";

const invitedBy = ({ appName, organizationName, inviterName }: Invite) =>
  inviterName
    ? `${inviterName} invited you to join ${organizationName} on ${appName}`
    : `You have been invited to join ${organizationName} on ${appName}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const en: EmailCopy = {
  languageTag: "en",
  layout: {
    sentBy: (appName) => `This email was sent by ${appName}.`,
    linkFallback: "If the button does not work, open this link:",
  },
  units: {
    minutes: (count) => plural(count, "minute", "minutes"),
    hours: (count) => plural(count, "hour", "hours"),
    days: (count) => plural(count, "day", "days"),
  },
  sign_up_code: {
    subject: (appName) => `Your ${appName} sign-up code`,
    preview: (appName) => `Enter this code to finish signing up for ${appName}.`,
    heading: "Confirm your email address",
    intro: (appName) => `Enter this code in ${appName} to finish creating your account:`,
    expiry: (duration) => `The code expires in ${duration}.`,
    notYou: "If you did not try to sign up, you can ignore this email. No account is created without the code.",
  },
  account_exists: {
    subject: (appName) => `You already have an account with ${appName}`,
    preview: (appName) => `Someone tried to sign up for ${appName} with this email address.`,
    heading: "You already have an account",
    intro: (appName) =>
      `Someone, probably you, tried to sign up for ${appName} with this email address. It already belongs to an account, so no new account was created.`,
    signIn: "Sign in",
    forgotPassword: "Forgot your password? You can choose a new one:",
    resetPassword: "Reset password",
    notYou: "If this was not you, you can ignore this email. Your account has not been changed.",
  },
  password_reset_code: {
    subject: (appName) => `Your ${appName} password reset code`,
    preview: (appName) => `Enter this code to choose a new password for ${appName}.`,
    heading: "Reset your password",
    intro: (appName) => `Enter this code in ${appName} to choose a new password:`,
    expiry: (duration) => `The code expires in ${duration}.`,
    notYou: "If you did not ask to reset your password, you can ignore this email. Your password stays as it is.",
  },
  password_changed: {
    subject: (appName) => `Your ${appName} password was changed`,
    preview: (appName) => `The password for your ${appName} account was changed.`,
    heading: "Your password was changed",
    intro: (appName, when) => `The password for your ${appName} account was changed on ${when}.`,
    ifYou: "If you made this change, there is nothing more to do.",
    notYou: "If this was not you, reset your password now and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  email_added: {
    subject: (appName) => `An email address was added to your ${appName} account`,
    preview: (appName) => `A new email address was added to your ${appName} account.`,
    heading: "An email address was added",
    intro: (appName, email, when) =>
      `The address ${email} was added to your ${appName} account on ${when}. Once it is verified, it can be used to sign in and to reset your password.`,
    ifYou: "If you added it, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now, then remove the address and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  primary_email_changed: {
    subject: (appName) => `The primary email address of your ${appName} account was changed`,
    preview: (appName) => `Your ${appName} account has a new primary email address.`,
    heading: "Your primary email address was changed",
    intro: (appName, email, when) =>
      `On ${when}, ${email} became the primary email address of your ${appName} account. Account emails now go there.`,
    ifYou: "If you made this change, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  mfa_enabled: {
    subject: (appName) => `Two-step verification is on for your ${appName} account`,
    preview: (appName) => `Your ${appName} account now asks for a code from your authenticator app.`,
    heading: "Two-step verification turned on",
    intro: (appName, when) =>
      `Two-step verification was turned on for your ${appName} account on ${when}. Signing in now takes your password and a code from your authenticator app.`,
    ifYou: "If you turned it on, keep your recovery codes somewhere safe: they let you in if you lose your phone.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  mfa_disabled: {
    subject: (appName) => `Two-step verification was turned off for your ${appName} account`,
    preview: (appName) => `Your ${appName} account no longer asks for a code when you sign in.`,
    heading: "Two-step verification turned off",
    intro: (appName, when) =>
      `Two-step verification was turned off for your ${appName} account on ${when}. Signing in no longer asks for a code from your authenticator app, and your recovery codes no longer work.`,
    ifYou: "If you turned it off, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now, sign out of the sessions you do not recognize and turn two-step verification back on:",
    resetPassword: "Reset password",
  },
  recovery_codes_regenerated: {
    subject: (appName) => `New recovery codes for your ${appName} account`,
    preview: (appName) => `New recovery codes were made for your ${appName} account; the old ones no longer work.`,
    heading: "Your recovery codes were replaced",
    intro: (appName, when) => `New recovery codes were made for your ${appName} account on ${when}. The earlier codes no longer work.`,
    ifYou: "If you made them, keep the new codes somewhere safe.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  passkey_removed: {
    subject: (appName) => `A passkey was removed from your ${appName} account`,
    preview: (appName) => `A passkey can no longer be used to sign in to your ${appName} account.`,
    heading: "A passkey was removed",
    intro: (appName, when) => `A passkey was removed from your ${appName} account on ${when}. It can no longer be used to sign in.`,
    ifYou: "If you removed it, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: reset your password now and sign out of the sessions you do not recognize:",
    resetPassword: "Reset password",
  },
  second_factors_reset: {
    subject: (appName) => `Two-step verification was reset for your ${appName} account`,
    preview: (appName) => `An administrator of ${appName} removed your authenticator app, recovery codes and passkeys.`,
    heading: "Your second factors were reset",
    intro: (appName, when) =>
      `An administrator of ${appName} reset two-step verification for your account on ${when}: your authenticator app, recovery codes and passkeys no longer work, and every session was signed out.`,
    ifYou: "If you asked for this, sign in and set up two-step verification again.",
    notYou:
      "If you did not ask for this, contact the application's support, and reset your password now:",
    resetPassword: "Reset password",
  },
  passkey_added: {
    subject: (appName) => `A passkey was added to your ${appName} account`,
    preview: (appName) => `A new passkey can now sign in to your ${appName} account.`,
    heading: "A passkey was added",
    intro: (appName, passkeyName, when) =>
      `The passkey “${passkeyName}” was added to your ${appName} account on ${when}. It can sign in to your account without a password.`,
    ifYou: "If you added it, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: remove the passkey now, change your password and sign out of the sessions you do not recognize:",
    review: "Review your passkeys",
  },
  account_connected: {
    subject: (appName, providerName) => `${providerName} was connected to your ${appName} account`,
    preview: (appName, providerName) => `Your ${providerName} account can now sign in to your ${appName} account.`,
    heading: (providerName) => `${providerName} was connected`,
    intro: (appName, providerName, when) =>
      `An account at ${providerName} was connected to your ${appName} account on ${when}. It can now sign in to your account without your password.`,
    ifYou: "If you connected it, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: disconnect it now, change your password and sign out of the sessions you do not recognize:",
    review: "Review your connected accounts",
  },
  account_disconnected: {
    subject: (appName, providerName) => `${providerName} was disconnected from your ${appName} account`,
    preview: (appName, providerName) => `Your ${providerName} account can no longer sign in to your ${appName} account.`,
    heading: (providerName) => `${providerName} was disconnected`,
    intro: (appName, providerName, when) =>
      `An account at ${providerName} was disconnected from your ${appName} account on ${when}. It can no longer be used to sign in.`,
    ifYou: "If you disconnected it, there is nothing more to do.",
    notYou:
      "If this was not you, someone may be signed in to your account: change your password and sign out of the sessions you do not recognize:",
    review: "Review your account",
  },
  email_verification_link: {
    subject: (appName) => `Verify your email address for ${appName}`,
    preview: (appName) => `Confirm that this email address belongs to your ${appName} account.`,
    heading: "Verify your email address",
    intro: (appName) => `Confirm that you want to add this email address to your ${appName} account.`,
    button: "Verify email address",
    expiry: (duration) => `The link expires in ${duration}.`,
    notYou: "If you did not add this address, you can ignore this email.",
  },
  account_deletion_link: {
    subject: (appName) => `Confirm the deletion of your ${appName} account`,
    preview: (appName) => `Confirm that you want to delete your ${appName} account.`,
    heading: "Confirm account deletion",
    intro: (appName) =>
      `You asked to delete your ${appName} account. Your account and its data are deleted when you confirm with the button below. This cannot be undone.`,
    button: "Delete my account",
    expiry: (duration) => `The link expires in ${duration}.`,
    notYou: "If you did not ask for this, ignore this email and your account stays as it is. Consider changing your password.",
  },
  data_export_ready: {
    subject: (appName) => `Your ${appName} data is ready to download`,
    preview: (appName) => `The copy of your ${appName} data you asked for is ready.`,
    heading: "Your data is ready",
    intro: (appName) =>
      `The copy of everything ${appName} stores about you is ready. The link works once: the file is deleted from our servers after you download it.`,
    button: "Download my data",
    expiry: (duration) => `The link expires in ${duration}.`,
    notYou: "If you did not ask for a copy of your data, change your password: someone may be signed in to your account.",
  },
  organization_invitation: {
    subject: (invite) => invitedBy(invite),
    preview: (invite) => `${invitedBy(invite)}.`,
    heading: (organizationName) => `Join ${organizationName}`,
    intro: (invite) => `${invitedBy(invite)}.`,
    role: (roleName) => `You will join as ${roleName}.`,
    button: "Accept invitation",
    expiry: (duration) => `The invitation expires in ${duration}.`,
    notYou: "If you do not want to join, you can ignore this email.",
  },
};
