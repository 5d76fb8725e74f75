import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import { AppError } from "../errors";

/**
 * Holds the provider's row FOR SHARE for the rest of a transaction that turns the
 * provider's word into an identity, a user or a session. Run it first in that
 * transaction: a deletion of the provider takes the row first too
 * (deleteOAuthProvider), so it either waits for this sign-in to commit, and then
 * revokes what it opened, or has committed, and this sign-in fails. Without it a
 * provider that stalls its token answer until its deletion has run could still
 * open a session, or leave an identity under a deleted provider id.
 */
export async function holdProvider(tx: Database, environmentId: string, providerId: string): Promise<void> {
  const [row] = await tx
    .select({ id: oauthProviders.id })
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.id, providerId), eq(oauthProviders.enabled, true)))
    .for("share");
  if (!row) throw new AppError("oauth_failed", "This sign-in provider was removed or turned off during the sign-in.");
}
