import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { elapsedSince, formatCount, formatSeconds } from "./stats";

/** Marks the seeded rows, so a rerun counts them (and only them) before seeding again. */
const SEED_REQUEST_ID = "job_bench_seed";
const BATCH_SIZE = 200_000;
/** Spread over the last 30 days: a busy tenant's week is then ~23 % of its log. */
const SPAN_DAYS = 30;

/**
 * The audit log of a busy environment, `count` events in one INSERT … SELECT per batch
 * (generate_series, so no row leaves the server): sign-ins most, then sign-outs,
 * sign-ups, creations and updates, each about a random subject, at times spread over
 * the last 30 days in write order (seq rises with time, as it does live). `userId`
 * gets ~50 events about it, for the filtered plans.
 */
export async function ensureEvents(db: Database, environmentId: string, count: number, userId: string): Promise<void> {
  const [row] = await queryRows<{ n: string }>(db, sql`select count(*) as n from events where environment_id = ${environmentId} and request_id = ${SEED_REQUEST_ID}`);
  const existing = Number(row?.n ?? 0);
  if (existing === count) {
    console.log(`reusing ${formatCount(count)} seeded events`);
    return;
  }
  if (existing > 0) await db.execute(sql`delete from events where environment_id = ${environmentId} and request_id = ${SEED_REQUEST_ID}`);
  console.log(`seeding ${formatCount(count)} events (batches of ${formatCount(BATCH_SIZE)})`);
  const started = performance.now();
  const stepMicroseconds = Math.floor((SPAN_DAYS * 24 * 3600 * 1_000_000) / count);
  for (let from = 1; from <= count; from += BATCH_SIZE) {
    const to = Math.min(from + BATCH_SIZE - 1, count);
    await db.execute(sql`
      with draws as (
        select g, (hashint8extended(g, 11) & 1023) as u,
          case when g % 20000 = 0 then ${userId}::uuid else gen_random_uuid() end as subject
        from generate_series(${from}::bigint, ${to}::bigint) as g
      )
      insert into events (environment_id, type, actor_type, actor_id, subject_id, data, request_id, created_at)
      select ${environmentId}::uuid,
        case when u < 600 then 'session.created' when u < 850 then 'session.revoked' when u < 920 then 'user.signed_up'
             when u < 960 then 'user.created' when u < 1020 then 'user.updated' else 'user.banned' end,
        case when u < 920 then 'user' else 'secret_key' end,
        case when u < 920 then subject::text else 'key_bench' end,
        subject,
        case when u < 600 then jsonb_build_object('sessionId', gen_random_uuid(), 'amr', jsonb_build_array('pwd'))
             when u < 850 then jsonb_build_object('sessionId', gen_random_uuid(), 'reason', 'sign_out')
             when u < 1020 and u >= 960 then jsonb_build_object('fields', jsonb_build_array('firstName'))
             when u >= 1020 then jsonb_build_object('revokedSessions', 0)
             else '{}'::jsonb end,
        ${SEED_REQUEST_ID},
        now() - interval '${sql.raw(String(SPAN_DAYS))} days' + (g * ${stepMicroseconds}) * interval '1 microsecond'
      from draws
      order by g`);
    const elapsed = elapsedSince(started);
    console.log(`  seeded ${formatCount(to).padStart(11)} / ${formatCount(count)} events  (${formatSeconds(elapsed)} elapsed)`);
  }
  console.log("vacuum analyze events…");
  await db.execute(sql`vacuum analyze events`);
}
