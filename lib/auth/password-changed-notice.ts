import type { Database } from "@/db/client";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, type LinkBase } from "../environments/environment-links";
import type { UserRow } from "../users/serialize";

/**
 * Tells the owner their password changed, with a way back in if it was not them:
 * at the primary address always, and also at `provenBy` when the change was
 * proven through another of the account's addresses (a reset code sent to a
 * secondary one). Whoever took over that other mailbox is exactly who the primary
 * must hear about. Send it in the change's transaction, with `owner` the row it
 * locked: no concurrent change of the primary can redirect it, and when it cannot
 * be sent nothing changes (503 email_unavailable).
 */
export async function sendPasswordChangedNotices(
  db: Database,
  environment: EnvironmentContext,
  links: LinkBase,
  owner: Pick<UserRow, "email" | "locale">,
  provenBy?: string,
): Promise<void> {
  const recipients = new Set([owner.email, provenBy].filter((address): address is string => Boolean(address)));
  for (const to of recipients) {
    await sendEmail(db, {
      template: "password_changed",
      to,
      locale: emailLocale(environment, owner.locale),
      environment: emailEnvironment(environment),
      props: { changedAt: new Date().toISOString(), resetPasswordUrl: environmentUrl(links, "/forgot-password") },
    });
  }
}
