import { and, desc, eq, exists, getTableColumns, gte, ilike, inArray, isNull, lt, sql, type Column, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { searchKey, users } from "@/db/schema";
import { AppError } from "../errors";
import type { searchUsersBody } from "./schemas";
import { toServerUser } from "./serialize";
import { userSummaryColumns } from "./user-summary";

type SearchFilter = z.output<typeof searchUsersBody>;

/** The columns a row filter reads: `users` itself, or a subquery selecting from it. */
interface FilterColumns {
  name: Column;
  email: Column;
  status: Column;
}

/**
 * How many rows the newest-first walk may read per result wanted before a substring
 * search turns to the trigram index (see `findBySubstring`): a term rarer than 1 user
 * in 500 goes to the index. Measured at a million users, a walk row costs about a
 * fifth of an index candidate (the ILIKE against a heap fetch): the full walk takes
 * ~6 ms, and a term just rare enough to get past it has ~2,000 matches, which the
 * index fetches in about as long. Neither route's worst case outweighs the other's.
 */
const WALK_ROWS_PER_RESULT = 500;

const USER_COLUMNS = getTableColumns(users);
/** The aliases of the subqueries a substring search reads users from. */
const NEWEST = "newest";
const MATCHES = "matches";
type UserColumn = keyof typeof USER_COLUMNS;

/**
 * What a page row selects: the user's columns, read from `source` (the users table
 * or a subquery over it, named `from` in the query), and the summary of the user's
 * second factors and connected accounts, computed in the same statement for the
 * rows of the page only.
 */
function pageRow<S extends Record<UserColumn, unknown>>(source: S, from: string) {
  const columns = Object.fromEntries(Object.keys(USER_COLUMNS).map((key) => [key, source[key as UserColumn]])) as Pick<S, UserColumn>;
  return { ...columns, ...userSummaryColumns(from) };
}

/** `%`, `_` and `\` in a search term match themselves (backslash is Postgres's LIKE escape). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The slice of the (environment, createdAt, id) index a page may come from: tenant,
 * creation window and keyset position. An ordered index scan seeks on all of them.
 * The cursor's position is read in SQL so microsecond timestamps never round-trip
 * through JavaScript.
 */
function rangeConditions(environmentId: string, filter: SearchFilter, cursor: string | undefined): (SQL | undefined)[] {
  const { createdAfter, createdBefore, externalId } = filter;
  return [
    eq(users.environmentId, environmentId),
    // Exact, on the (environment, externalId) unique index.
    externalId === undefined ? undefined : externalId === null ? isNull(users.externalId) : eq(users.externalId, externalId),
    // createdAt is never null, so a null bound (which requires a null column) matches nothing.
    createdAfter === undefined ? undefined : createdAfter === null ? sql`false` : gte(users.createdAt, new Date(createdAfter)),
    createdBefore === undefined ? undefined : createdBefore === null ? sql`false` : atOrBefore(createdBefore),
    cursor
      ? sql`(${users.createdAt}, ${users.id}) < (select c.created_at, c.id from users c where c.id = ${cursor} and c.environment_id = ${environmentId})`
      : undefined,
  ];
}

/** Conditions checked row by row. */
function rowConditions(columns: FilterColumns, filter: SearchFilter): (SQL | undefined)[] {
  const { name, email, statuses } = filter;
  return [
    name === undefined ? undefined : name === null ? isNull(columns.name) : ilike(columns.name, likeContains(name)),
    email === undefined ? undefined : email === null ? isNull(columns.email) : ilike(columns.email, likeContains(email)),
    statuses ? inArray(columns.status, statuses) : undefined,
  ];
}

/**
 * created_at holds microseconds but the API reports milliseconds, so a user shown as
 * created at T was created in [T, T + 1 ms). "At or before T" therefore means
 * "before T + 1 ms"; a plain `<= T` missed the very user whose createdAt is T.
 * The addition happens in SQL so the bound stays valid up to 9999-12-31T23:59:59.999Z.
 */
function atOrBefore(bound: string): SQL {
  return lt(users.createdAt, sql`${new Date(bound).toISOString()}::timestamptz + interval '1 millisecond'`);
}

/**
 * One page of users, newest first, by keyset on (createdAt, id): the cursor is the
 * last item's id. Cost is the same on page 1 and page 50,000.
 */
export async function searchUsers(
  db: Database,
  environmentId: string,
  filter: SearchFilter,
  page: { limit: number; cursor?: string },
) {
  const range = and(...rangeConditions(environmentId, filter, page.cursor));
  const wanted = page.limit + 1;
  const rows =
    typeof filter.name === "string" || typeof filter.email === "string"
      ? await findBySubstring(db, range, filter, wanted)
      : await db
          .select(pageRow(users, "users"))
          .from(users)
          .where(and(range, ...rowConditions(users, filter)))
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(wanted);

  if (rows.length === 0 && page.cursor) await assertCursorExists(db, environmentId, page.cursor);
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map((row) => toServerUser(row, row));
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
}

/**
 * Up to `wanted` users matching a substring filter, newest first. Two plans exist and
 * each is ruinous where the other shines: walking the (environment, createdAt, id)
 * index newest-first stops after `wanted` hits, which is instant for a term most
 * users match but reads the whole tenant for a rare one; the trigram index finds a
 * rare term's few rows at once but must fetch and sort every row of a common term.
 * Postgres picks between them from its estimate of the term's frequency, and
 * ILIKE '%term%' estimates are often off by orders of magnitude (measured: a term
 * estimated at 1 % of a million users matched 0.04 %, and its walk took 400 ms).
 *
 * So the decision is made from what the data shows instead: walk a bounded number
 * of the newest rows first; only a term too rare to fill the page there goes to
 * the trigram index, which then has few rows to fetch unless the term's users all
 * signed up long ago. The estimate no longer picks the route.
 */
async function findBySubstring(db: Database, range: SQL | undefined, filter: SearchFilter, wanted: number) {
  const budget = WALK_ROWS_PER_RESULT * wanted;
  const newest = db
    .select()
    .from(users)
    .where(range)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(budget)
    .as(NEWEST);
  const walked = await db
    .select(pageRow(newest, NEWEST))
    .from(newest)
    .where(and(...rowConditions(newest, filter)))
    .orderBy(desc(newest.createdAt), desc(newest.id))
    .limit(wanted);
  if (walked.length === wanted) return walked;

  const indexed = [trigramCandidates(users.email, filter.email), trigramCandidates(users.name, filter.name)];
  if (indexed.every((condition) => condition === undefined)) {
    // Under three letters or digits leaves the trigram index nothing to look up: the
    // ordered walk, now unbounded, is the best plan left. Such terms are mostly common.
    return db
      .select(pageRow(users, "users"))
      .from(users)
      .where(and(range, ...rowConditions(users, filter)))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(wanted);
  }

  // The walk read its whole budget without filling the page; if the budget was more
  // than the range holds, the walk saw every row and its answer is complete. The
  // EXISTS has no outer references, so Postgres checks it once, before the scan
  // below starts, and skips that scan entirely when it is false.
  const budgetFilled = exists(
    db
      .select({ one: sql`1` })
      .from(users)
      .where(range)
      .orderBy(desc(users.createdAt), desc(users.id))
      .offset(budget - 1)
      .limit(1),
  );
  // OFFSET 0 keeps Postgres from pulling the subquery up into the ordered, limited
  // query, where it could choose the index walk again: asked for all matches
  // instead, it takes the trigram index. (drizzle drops a literal `.offset(0)`, so
  // the 0 is bound as a parameter.) The result contains the walk's hits too.
  const matches = db
    .select()
    .from(users)
    .where(and(range, ...indexed, ...rowConditions(users, filter), budgetFilled))
    .offset(sql.placeholder("fence"))
    .as(MATCHES);
  const found = await db
    .select(pageRow(matches, MATCHES))
    .from(matches)
    .orderBy(desc(matches.createdAt), desc(matches.id))
    .limit(wanted)
    .execute({ fence: 0 });
  return found.length > 0 ? found : walked;
}

/**
 * A superset of the rows whose `column` contains `term`, answerable from the trigram
 * index on searchKey(column): if the text contains the term, its key contains the
 * term's key. Undefined when the key would be under three characters, the shortest
 * a trigram lookup can use; the exact ILIKE in rowConditions decides either way.
 */
export function trigramCandidates(column: Column, term: string | null | undefined): SQL | undefined {
  if (typeof term !== "string" || term.replace(/[^\p{L}\p{N}]+/gu, "q").length < 3) return undefined;
  return sql`${searchKey(column)} like '%' || ${searchKey(sql`${term}::text`)} || '%'`;
}

async function assertCursorExists(db: Database, environmentId: string, cursor: string): Promise<void> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, cursor), eq(users.environmentId, environmentId)))
    .limit(1);
  if (!row) throw new AppError("invalid_request", "cursor: is not a nextCursor from this environment.");
}
