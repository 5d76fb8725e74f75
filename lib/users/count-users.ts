import { and, count, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";

/**
 * The environment's users that are not deleted. Naming the live statuses (rather
 * than "not deleted") lets Postgres count from the (environment, status, createdAt)
 * index alone.
 */
export async function countUsers(db: Database, environmentId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(users)
    .where(and(eq(users.environmentId, environmentId), inArray(users.status, ["active", "banned"])));
  return row?.count ?? 0;
}
