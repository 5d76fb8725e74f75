import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { likeContains, searchUsers } from "@/lib/users/search-users";
import { PAGE_LIMIT, type SearchRequest, type SearchScenario } from "./search-scenarios";

/**
 * The page each scenario must return, from the plainest possible query: one
 * WHERE, one ORDER BY, no planning tricks. Speed work on searchUsers must never
 * change its answers, and the test suite's small tenants never reach the
 * trigram-index fallback, so the bench checks it on the seeded million.
 */
function referenceQuery(environmentId: string, request: SearchRequest): SQL {
  const { email, name, statuses } = request.filter;
  const conditions: SQL[] = [sql`environment_id = ${environmentId}`];
  if (typeof email === "string") conditions.push(sql`email ilike ${likeContains(email)}`);
  if (typeof name === "string") conditions.push(sql`name ilike ${likeContains(name)}`);
  if (statuses) conditions.push(sql`status in (${sql.join(statuses.map((status) => sql`${status}`), sql`, `)})`);
  if (request.cursor) {
    conditions.push(sql`(created_at, id) < (select created_at, id from users where id = ${request.cursor})`);
  }
  return sql`select id from users where ${sql.join(conditions, sql` and `)}
             order by created_at desc, id desc limit ${PAGE_LIMIT}`;
}

/** Throws on the first request whose page differs from the reference query's. */
export async function verifySearchResults(db: Database, environmentId: string, scenarios: SearchScenario[]): Promise<number> {
  let checked = 0;
  for (const scenario of scenarios) {
    for (const request of scenario.requests) {
      const expected = (await queryRows<{ id: string }>(db, referenceQuery(environmentId, request))).map((row) => row.id);
      const page = await searchUsers(db, environmentId, request.filter, { limit: PAGE_LIMIT, cursor: request.cursor });
      const actual = page.items.map((user) => user.id);
      if (actual.join() !== expected.join()) {
        throw new Error(
          `searchUsers disagrees with the reference query for ${scenario.name} (${request.label}): ` +
            `expected ${expected.length} ids starting ${expected.slice(0, 3).join(", ")}, got ${actual.length} starting ${actual.slice(0, 3).join(", ")}`,
        );
      }
      checked++;
    }
  }
  return checked;
}
