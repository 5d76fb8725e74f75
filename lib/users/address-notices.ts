import type { Database } from "@/db/client";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { Locale } from "../email/types";
import type { EnvironmentContext } from "../environments/context";

/** The account owner as a notice needs them: the primary address read (and locked) in the change's transaction. */
export interface NoticeRecipient {
  email: string;
  locale: Locale | null;
}

/**
 * Security notices about the account's addresses are sent inside the transaction of
 * the change, before it is written, to the primary address as that transaction
 * found it: whoever makes the change cannot have the notice sent to an address of
 * their choosing, and when it cannot be sent nothing changes (503 email_unavailable).
 */
async function sendAddressNotice(
  db: Database,
  environment: EnvironmentContext,
  template: "email_added" | "primary_email_changed",
  to: string,
  locale: Locale | null,
  email: string,
): Promise<void> {
  await sendEmail(db, {
    template,
    to,
    locale: emailLocale(environment, locale),
    environment: emailEnvironment(environment),
    props: { email, occurredAt: new Date().toISOString(), resetPasswordUrl: environmentUrl(linkBase(environment, null), "/forgot-password") },
  });
}

/** "The address X was added to your account", to the primary address. */
export function sendEmailAddedNotice(db: Database, environment: EnvironmentContext, owner: NoticeRecipient, added: string): Promise<void> {
  return sendAddressNotice(db, environment, "email_added", owner.email, owner.locale, added);
}

/** "X is now your primary address", to the old primary address and to the new one. */
export async function sendPrimaryChangedNotices(
  db: Database,
  environment: EnvironmentContext,
  owner: NoticeRecipient,
  newPrimary: string,
): Promise<void> {
  for (const to of [owner.email, newPrimary]) {
    await sendAddressNotice(db, environment, "primary_email_changed", to, owner.locale, newPrimary);
  }
}
