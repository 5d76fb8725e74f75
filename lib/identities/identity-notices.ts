import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import type { UserRow } from "../users/serialize";

export type IdentityNotice = "account_connected" | "account_disconnected";

/**
 * The name people know a provider by ("GitHub", "Acme SSO"), as the operator
 * configured it; a provider removed since the identity was linked is named by its id.
 */
export async function providerDisplayName(db: Database, environmentId: string, providerId: string): Promise<string> {
  const [row] = await db
    .select({ name: oauthProviders.name })
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.id, providerId)))
    .limit(1);
  return row?.name ?? providerId;
}

/**
 * "A provider account was connected to / disconnected from your account", sent
 * inside the transaction of the change to the primary address: a connected account
 * signs in without the password, so whoever holds a session cannot plant one
 * unseen, and when the email cannot be sent nothing changes (503
 * email_unavailable). A user without an address gets none.
 */
export async function sendIdentityNotice(
  db: Database,
  environment: EnvironmentContext,
  owner: Pick<UserRow, "email" | "locale">,
  template: IdentityNotice,
  providerId: string,
): Promise<void> {
  if (!owner.email) return;
  await sendEmail(db, {
    template,
    to: owner.email,
    locale: emailLocale(environment, owner.locale),
    environment: emailEnvironment(environment),
    props: {
      providerName: await providerDisplayName(db, environment.id, providerId),
      occurredAt: new Date().toISOString(),
      accountUrl: environmentUrl(linkBase(environment, null), "/account"),
    },
  });
}
