import { eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { identitySummaryColumn } from "../identities/identity-summary";
import { factorSummaryColumns } from "../mfa/user-factors";
import { organizationSummaryColumn } from "../organizations/user-organizations";
import { NO_FACTORS, type UserSummary } from "./serialize";

/**
 * The Server API's summary of users (second factors, connected accounts, organizations) as columns
 * of a query over users, so a page of users carries it in the one statement that
 * finds them. `from` is the name that query gives the users rows.
 */
export function userSummaryColumns(from: string) {
  const userId = sql`${sql.identifier(from)}.${sql.identifier("id")}`;
  return { ...factorSummaryColumns(from), identities: identitySummaryColumn(userId), organizations: organizationSummaryColumn(userId) };
}

/** The summary of one user, in one round trip. */
export async function readUserSummary(db: Database, userId: string): Promise<UserSummary> {
  const [row] = await db.select(userSummaryColumns("users")).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? NO_FACTORS;
}
