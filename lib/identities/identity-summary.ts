import { sql, type SQL } from "drizzle-orm";
import type { IdentitySummary } from "./schemas";

interface StoredSummary {
  id: string;
  provider: string;
  email: string | null;
  emailVerified: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

/** Postgres writes timestamps into JSON with microseconds and an offset; the API speaks ISO 8601 in milliseconds, UTC. */
function toSummaries(value: unknown): IdentitySummary[] {
  const rows = (typeof value === "string" ? JSON.parse(value) : value) as StoredSummary[];
  return rows.map((row) => ({
    ...row,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSignInAt: row.lastSignInAt === null ? null : new Date(row.lastSignInAt).toISOString(),
  }));
}

/**
 * The user's connected accounts, oldest first, as one JSON column of a query over
 * users: a correlated subquery on the identities' (user, createdAt) index, so a
 * page of users carries them in the statement that finds it. `userId` is that
 * query's users id column.
 */
export function identitySummaryColumn(userId: SQL): SQL<IdentitySummary[]> {
  return sql<IdentitySummary[]>`coalesce((
    select json_agg(json_build_object('id', i.id, 'provider', i.provider_id, 'email', i.email, 'emailVerified', i.email_verified,
                                      'createdAt', i.created_at, 'lastSignInAt', i.last_sign_in_at) order by i.created_at, i.id)
      from user_identities i where i.user_id = ${userId}), '[]'::json)`.mapWith(toSummaries);
}

