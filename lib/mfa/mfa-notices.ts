import type { Database } from "@/db/client";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import type { UserRow } from "../users/serialize";

export type MfaNotice = "mfa_enabled" | "mfa_disabled" | "recovery_codes_regenerated" | "passkey_removed" | "second_factors_reset";

/**
 * A notice about the account's second factors, sent inside the transaction of the
 * change to the primary address that transaction locked: whoever holds a session
 * cannot switch a second factor on or off unseen, and when the email cannot be
 * sent nothing changes (503 email_unavailable). Sent after the change's checks,
 * so a refused change never sends one. A user without an address gets none.
 */
export async function sendMfaNotice(db: Database, environment: EnvironmentContext, owner: Pick<UserRow, "email" | "locale">, template: MfaNotice) {
  if (!owner.email) return;
  await sendEmail(db, {
    template,
    to: owner.email,
    locale: emailLocale(environment, owner.locale),
    environment: emailEnvironment(environment),
    props: { occurredAt: new Date().toISOString(), resetPasswordUrl: environmentUrl(linkBase(environment, null), "/forgot-password") },
  });
}
