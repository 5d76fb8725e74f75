import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { legalAcceptances } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";

/**
 * Documents are identified by their URLs: publishing new terms at a new URL asks
 * every user to accept again.
 */
export async function hasAcceptedCurrentDocuments(db: Database, environment: EnvironmentContext, userId: string): Promise<boolean> {
  const { termsUrl, privacyUrl } = environment.settings.legal;
  const [row] = await db
    .select({ id: legalAcceptances.id })
    .from(legalAcceptances)
    .where(
      and(
        eq(legalAcceptances.userId, userId),
        sql`${legalAcceptances.termsUrl} is not distinct from ${termsUrl}`,
        sql`${legalAcceptances.privacyUrl} is not distinct from ${privacyUrl}`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function recordLegalAcceptance(
  db: Database,
  environment: EnvironmentContext,
  userId: string,
  ipAddress: string | null,
): Promise<void> {
  const { termsUrl, privacyUrl } = environment.settings.legal;
  await db.insert(legalAcceptances).values({ environmentId: environment.id, userId, termsUrl, privacyUrl, ipAddress });
}
