import { sql } from "drizzle-orm";
import type { z } from "zod";
import { queryRows, type Database } from "@/db/client";
import type { searchUsersBody } from "@/lib/users/schemas";
import { likeContains } from "@/lib/users/search-users";

export type SearchFilter = z.output<typeof searchUsersBody>;

/** One call of `searchUsers`, with a short label naming what varies. */
export interface SearchRequest {
  label: string;
  filter: SearchFilter;
  cursor?: string;
}

export interface SearchScenario {
  name: string;
  /** What is searched for, as shown in the table. */
  term: string;
  /** Cycled through, one per iteration; a single request repeats the same query. */
  requests: SearchRequest[];
  /** How many users the filter matches, when one number describes it. */
  matches?: number;
  /** The p95 the service must stay under at a million users, where a target is set. */
  p95TargetMs?: number;
}

/** Targets from the performance brief (at 1,000,000 users). */
export const SUBSTRING_P95_TARGET_MS = 25;
export const KEYSET_P95_TARGET_MS = 5;

/** Page size an admin list uses: the brief measures `limit: 20`. */
export const PAGE_LIMIT = 20;

/**
 * The scenarios, from the seeded vocabulary (bench/seed-vocabulary.ts): rare terms
 * match a few dozen users, common ones a tenth or more of them, so both the
 * trigram index and the ordered walk have a case where they should win.
 */
export async function buildScenarios(db: Database, environmentId: string, count: number): Promise<SearchScenario[]> {
  const matches = (column: "email" | "name", term: string) => countMatches(db, environmentId, column, term);
  const fixed = async (name: string, column: "email" | "name", term: string, target?: number): Promise<SearchScenario> => ({
    name,
    term: JSON.stringify(term),
    requests: [{ label: term, filter: { [column]: term } }],
    matches: await matches(column, term),
    p95TargetMs: target,
  });

  const [banned] = await queryRows<{ n: string }>(
    db,
    sql`select count(*) as n from users where environment_id = ${environmentId} and status = 'banned'`,
  );
  const cursors = await cursorsAtDepths(db, environmentId, count, [0, 0.5, 0.99]);
  const fragments = await emailFragments(db, environmentId, count, 200);

  return [
    await fixed("email, rare surname", "email", "quisenb", SUBSTRING_P95_TARGET_MS),
    await fixed("email, rare 3 chars", "email", "zam", SUBSTRING_P95_TARGET_MS),
    await fixed("email, no match", "email", "qzxv", SUBSTRING_P95_TARGET_MS),
    {
      name: "email, 4 chars of a random user's email",
      term: `${fragments.length} terms`,
      requests: fragments.map((term) => ({ label: term, filter: { email: term } })),
      p95TargetMs: SUBSTRING_P95_TARGET_MS,
    },
    await fixed("email, common domain", "email", "example", SUBSTRING_P95_TARGET_MS),
    await fixed("email, common 3 chars", "email", "son", SUBSTRING_P95_TARGET_MS),
    await fixed("name, rare surname", "name", "thistleth"),
    await fixed("name, common fragment", "name", "mar"),
    {
      name: "status banned",
      term: '["banned"]',
      requests: [{ label: "banned", filter: { statuses: ["banned"] } }],
      matches: Number(banned?.n ?? 0),
    },
    { name: "keyset, first page", term: "no cursor", requests: [{ label: "page 1", filter: {} }], p95TargetMs: KEYSET_P95_TARGET_MS },
    ...cursors.map(({ depth, id }) => ({
      name: `keyset, page after ${Math.round(depth * 100)} %`,
      term: "cursor",
      requests: [{ label: `cursor at ${Math.round(depth * 100)} %`, filter: {}, cursor: id }],
      p95TargetMs: KEYSET_P95_TARGET_MS,
    })),
  ];
}

/** Same predicate as the service (ILIKE with %, _ and \ escaped), counted once for the table. */
async function countMatches(db: Database, environmentId: string, column: "email" | "name", term: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    db,
    sql`select count(*) as n from users where environment_id = ${environmentId} and ${sql.identifier(column)} ilike ${likeContains(term)}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Cursor ids at given depths of the newest-first order. OFFSET is slow but it is
 * only used here, once, to find where a long walk would be; the timed requests
 * then start from those ids the way a client holding a nextCursor would.
 */
async function cursorsAtDepths(db: Database, environmentId: string, count: number, depths: number[]) {
  const result: { depth: number; id: string }[] = [];
  for (const depth of depths) {
    // Depth 0 is the nextCursor of the first page; the others sit inside the walk.
    const offset = Math.min(count - 1, Math.max(PAGE_LIMIT - 1, Math.floor(depth * count)));
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`select id from users where environment_id = ${environmentId}
          order by created_at desc, id desc offset ${offset} limit 1`,
    );
    if (!row) throw new Error(`no user at offset ${offset}`);
    result.push({ depth, id: row.id });
  }
  return result;
}

/**
 * Four consecutive characters of randomly chosen users' emails: what an operator
 * types when looking someone up. Some land on a rare stretch ("a482"), some on a
 * common one ("gmai", ".com"), and the p95 has to hold for all of them.
 */
async function emailFragments(db: Database, environmentId: string, count: number, wanted: number): Promise<string[]> {
  // Sample about five times what is wanted, spread over the whole table rather than
  // its first pages; REPEATABLE makes the sample, and so the terms, the same every run.
  const percent = Math.min(100, ((wanted * 5) / count) * 100);
  const rows = await queryRows<{ email: string }>(
    db,
    sql`select email from users tablesample bernoulli (${sql.raw(percent.toFixed(6))}) repeatable (42)
        where environment_id = ${environmentId} and email is not null`,
  );
  // Evenly spaced picks, so old and new users are both represented.
  const picked = Array.from({ length: Math.min(wanted, rows.length) }, (_, i) => rows[Math.floor((i * rows.length) / wanted)]);
  const random = mulberry32(42);
  return picked.flatMap((row) => (row ? [row] : [])).map(({ email }) => {
    const start = Math.floor(random() * (email.length - 3));
    return email.slice(start, start + 4);
  });
}

/** A small seeded PRNG, so the fragments do not change between runs. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
