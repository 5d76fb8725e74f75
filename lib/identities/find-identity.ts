import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userIdentities } from "@/db/schema";

export type IdentityRow = typeof userIdentities.$inferSelect;

/**
 * The identity a provider account signs in as: (provider, subject) in one
 * environment, on its unique index. Another environment's identity with the same
 * provider id and subject is a different account and never answers here.
 */
export async function findIdentity(db: Database, environmentId: string, providerId: string, subject: string): Promise<IdentityRow | null> {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.environmentId, environmentId), eq(userIdentities.providerId, providerId), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}
