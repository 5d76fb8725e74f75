import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import type { PublicOAuthProvider } from "./provider-schemas";

/**
 * The environment's enabled providers as sign-in buttons, in the operator's order:
 * only what a sign-in page may show (no client id, no secret, no issuer).
 */
export async function listPublicOAuthProviders(db: Database, environmentId: string): Promise<{ data: PublicOAuthProvider[] }> {
  const rows = await db
    .select({ id: oauthProviders.id, name: oauthProviders.name, type: oauthProviders.type })
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.enabled, true)))
    .orderBy(asc(oauthProviders.position), asc(oauthProviders.id));
  return {
    data: rows.map((row) => ({ ...row, icon: row.type, authorizeUrl: `/_svc/auth/oauth2/${encodeURIComponent(row.id)}/authorize` })),
  };
}
