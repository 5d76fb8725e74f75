import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { createEnvironment } from "@/lib/environments/create-environment";
import { elapsedSince, formatCount, formatSeconds } from "./stats";
import {
  BANNED_SHARE,
  DELETED_SHARE,
  DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  RARE_LAST_NAME_SHARE,
  RARE_LAST_NAMES,
  VERIFIED_SHARE,
} from "./seed-vocabulary";

/** 100k rows per statement: big enough to amortise the round trip, small enough to show progress every few seconds. */
const BATCH_SIZE = 100_000;

/** Sign-ups spread evenly over five years, each at its own microsecond. */
const FIRST_SIGN_UP = "2020-01-01T00:00:00Z";
const SIGN_UP_SPAN_MICROSECONDS = 5 * 365 * 24 * 3600 * 1_000_000;

/**
 * The application name marks a finished population of `count` users. The seeder
 * works under a "(seeding)" name and renames at the end, so a run interrupted
 * halfway is never mistaken for a finished one.
 */
/** Bumped whenever the generated users change, so an older population is replaced, not reused. */
const SEED_VERSION = 2;
export function populationMarker(count: number): string {
  return `bench-v${SEED_VERSION}-${count}`;
}
const SEEDING_SUFFIX = " (seeding)";
/** Matches the markers of any population size or version, finished or not (but not other bench apps). */
const POPULATION_PATTERN = "^bench-(v[0-9]+-)?[0-9]+( \\(seeding\\))?$";

export interface Population {
  environmentId: string;
  count: number;
  /** False when an earlier run's population was reused. */
  seeded: boolean;
}

/** Returns the environment holding exactly `count` seeded users, seeding it unless an earlier run did. */
export async function ensurePopulation(db: Database, count: number): Promise<Population> {
  const existing = await findPopulation(db, count);
  if (existing) {
    console.log(`reusing the seeded population "${populationMarker(count)}" (environment ${existing})`);
    return { environmentId: existing, count, seeded: false };
  }
  await removeOtherPopulations(db);
  const environmentId = await seedPopulation(db, count);
  return { environmentId, count, seeded: true };
}

async function findPopulation(db: Database, count: number): Promise<string | null> {
  const [row] = await queryRows<{ environment_id: string; users: string }>(
    db,
    sql`select e.id as environment_id, (select count(*) from users u where u.environment_id = e.id) as users
        from applications a join environments e on e.application_id = a.id
        where a.name = ${populationMarker(count)}
        limit 1`,
  );
  // count(*) arrives as a string (bigint); a population with missing rows is reseeded.
  return row && Number(row.users) === count ? row.environment_id : null;
}

/**
 * One population at a time: the planner's statistics describe the whole users
 * table, so a leftover population of another size would skew the plans measured.
 */
async function removeOtherPopulations(db: Database): Promise<void> {
  const stale = await queryRows<{ id: string; name: string }>(
    db,
    sql`select id, name from applications where name ~ ${POPULATION_PATTERN}`,
  );
  for (const app of stale) {
    const started = performance.now();
    console.log(`removing the earlier population "${app.name}"…`);
    await db.execute(sql`delete from applications where id = ${app.id}`);
    console.log(`  removed in ${formatSeconds(elapsedSince(started))}`);
  }
}

async function seedPopulation(db: Database, count: number): Promise<string> {
  const marker = populationMarker(count);
  const environment = await createEnvironment(db, { name: `${marker}${SEEDING_SUFFIX}` });
  console.log(`seeding ${formatCount(count)} users into environment ${environment.environmentId} (batches of ${formatCount(BATCH_SIZE)})`);

  const started = performance.now();
  for (let from = 1; from <= count; from += BATCH_SIZE) {
    const to = Math.min(from + BATCH_SIZE - 1, count);
    await db.execute(insertBatch(environment.environmentId, from, to, count));
    const elapsed = elapsedSince(started);
    console.log(
      `  seeded ${formatCount(to).padStart(11)} / ${formatCount(count)} users  ` +
        `(${formatCount((to / elapsed) * 1000)} users/s, ${formatSeconds(elapsed)} elapsed)`,
    );
  }

  await db.execute(sql`update applications set name = ${marker} where id = ${environment.applicationId}`);
  // Fresh statistics and a visibility map: without them the planner guesses, and
  // index-only scans would still visit the heap.
  const vacuumStarted = performance.now();
  console.log("vacuum analyze users…");
  await db.execute(sql`vacuum analyze users`);
  console.log(`  done in ${formatSeconds(elapsedSince(vacuumStarted))}`);
  return environment.environmentId;
}

/** A text[] literal of vocabulary words; the lists are constants, checked so nothing needs quoting. */
function textArray(words: readonly string[]): SQL {
  for (const word of words) if (!/^[A-Za-z.-]+$/.test(word)) throw new Error(`vocabulary word needs quoting: ${word}`);
  return sql.raw(`array[${words.map((word) => `'${word}'`).join(",")}]::text[]`);
}

/**
 * A uniform number in [0, 1) derived from the row number: deterministic, so every
 * run seeds the same users, and independent per `salt`.
 */
function uniform(salt: number): SQL {
  return sql.raw(`((hashint8extended(g, ${salt}) & 4503599627370495)::float8 / 4503599627370496.0)`);
}

/**
 * Users `from`..`to` of a population of `total` in one INSERT … SELECT: the rows
 * never leave the server, which is what makes a million rows take seconds.
 * Draws favour the start of each word list (u² or u³), giving common and rare terms.
 */
function insertBatch(environmentId: string, from: number, to: number, total: number): SQL {
  const stepMicroseconds = Math.floor(SIGN_UP_SPAN_MICROSECONDS / total);
  return sql`
    with words as (
      select ${textArray(FIRST_NAMES)} as first_names, ${textArray(LAST_NAMES)} as last_names,
             ${textArray(RARE_LAST_NAMES)} as rare_last_names, ${textArray(DOMAINS)} as domains
    ),
    draws as (
      select g,
        ${uniform(1)} as u_first, ${uniform(2)} as u_last, ${uniform(3)} as u_rare,
        ${uniform(4)} as u_domain, ${uniform(5)} as u_status, ${uniform(6)} as u_verified, ${uniform(7)} as u_jitter
      from generate_series(${from}::bigint, ${to}::bigint) as g
    ),
    people as (
      select g,
        w.first_names[1 + floor(cardinality(w.first_names) * u_first ^ 2)::int] as first_name,
        case when u_rare < ${RARE_LAST_NAME_SHARE}
          then w.rare_last_names[1 + floor(cardinality(w.rare_last_names) * u_rare / ${RARE_LAST_NAME_SHARE})::int]
          else w.last_names[1 + floor(cardinality(w.last_names) * u_last ^ 2)::int]
        end as last_name,
        w.domains[1 + floor(cardinality(w.domains) * u_domain ^ 2)::int] as domain,
        case when u_status < ${BANNED_SHARE} then 'banned'
             when u_status < ${BANNED_SHARE + DELETED_SHARE} then 'deleted'
             else 'active' end as status,
        u_verified < ${VERIFIED_SHARE} as verified,
        -- Row g signs up in its own slot of the span; jitter stays inside the slot,
        -- so timestamps rise with g and no two users share a microsecond.
        ${FIRST_SIGN_UP}::timestamptz
          + (g * ${stepMicroseconds} + floor(u_jitter * ${Math.floor(stepMicroseconds * 0.9)})) * interval '1 microsecond' as created_at
      from draws cross join words w
    )
    insert into users (environment_id, email, email_verified_at, password_hash, first_name, last_name, status,
                       public_metadata, private_metadata, unsafe_metadata, created_at, updated_at, deleted_at)
    select ${environmentId}::uuid,
      -- maria.garcia4839201@gmail.com. The number is the row number scrambled by a
      -- bijection (g * a mod a prime): unique per user, yet not in sign-up order, which
      -- would make every digit fragment a run of users who signed up together.
      lower(first_name || '.' || last_name || ((g * 7654321) % 10000019) || '@' || domain),
      case when verified then created_at end,
      null, first_name, last_name, status,
      '{}'::jsonb, '{}'::jsonb, '{}'::jsonb,
      created_at, created_at,
      case when status = 'deleted' then created_at + interval '30 days' end
    from people`;
}
