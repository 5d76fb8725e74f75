import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { countUsers } from "../users/count-users";
import type { EventType } from "./event-catalogue";
import type { ActivitySummary } from "./schemas";

/**
 * New users: people who signed themselves up (password and code, a provider, an
 * invitation) and users created through the Server API or the dashboard.
 */
const SIGN_UP_TYPES: EventType[] = ["user.signed_up", "user.created"];
/**
 * Every session opened: a sign-in by any method, a sign-up's first session, a
 * satellite domain's. An impersonation opens one too, but nobody signed in: its
 * event names the impersonator in on_behalf_of and is left out.
 */
const SIGN_IN_TYPE: EventType = "session.created";

/**
 * How long a summary is reused. Measured at a million users and a million events
 * (npm run bench -- dashboard): counting costs ~150 ms for the week's ~230,000
 * events and ~200 ms for the users, on every overview view; an overview is a glance,
 * and 30 s old counts are what analytics dashboards show anyway.
 */
export const ACTIVITY_SUMMARY_MAX_AGE_SECONDS = 30;
const MAX_CACHED_ENVIRONMENTS = 1_000;

/** Per environment, the summary being computed or computed last (one query at a time per environment, however many ask). */
const cache = new Map<string, { at: number; summary: Promise<ActivitySummary> }>();

/**
 * The dashboard home's figures, at most ACTIVITY_SUMMARY_MAX_AGE_SECONDS old: the
 * latest counts of this process for the environment, else counted now (concurrent
 * callers share the one count). A failed count is not kept.
 */
export function readActivitySummary(db: Database, environmentId: string, now = Date.now()): Promise<ActivitySummary> {
  const cached = cache.get(environmentId);
  if (cached && now - cached.at < ACTIVITY_SUMMARY_MAX_AGE_SECONDS * 1000) return cached.summary;
  const summary = countActivitySummary(db, environmentId);
  summary.catch(() => {
    if (cache.get(environmentId)?.summary === summary) cache.delete(environmentId);
  });
  if (cache.size >= MAX_CACHED_ENVIRONMENTS) {
    for (const [key, entry] of cache) if (now - entry.at >= ACTIVITY_SUMMARY_MAX_AGE_SECONDS * 1000) cache.delete(key);
    if (cache.size >= MAX_CACHED_ENVIRONMENTS) cache.clear();
  }
  cache.set(environmentId, { at: now, summary });
  return summary;
}

/**
 * The figures counted in SQL over the events of the environment. Days are UTC days
 * (the database's clock): "today" starts at 00:00 UTC, "last 7 days" at 00:00 UTC
 * six days earlier. One range scan of the (environment, created_at) index over the
 * week's events.
 */
export async function countActivitySummary(db: Database, environmentId: string): Promise<ActivitySummary> {
  // Two statements on two connections at once: at a million users each is a scan of its own.
  const [[counts], users] = await Promise.all([countActivity(db, environmentId), countUsers(db, environmentId)]);
  return {
    users,
    signUps: { today: counts?.sign_ups_today ?? 0, last7Days: counts?.sign_ups_week ?? 0 },
    signIns: { today: counts?.sign_ins_today ?? 0, last7Days: counts?.sign_ins_week ?? 0 },
  };
}

function countActivity(db: Database, environmentId: string) {
  return queryRows<{ sign_ups_today: number; sign_ups_week: number; sign_ins_today: number; sign_ins_week: number }>(
    db,
    sql`
    with bounds as (
      select date_trunc('day', now(), 'UTC') as today, date_trunc('day', now(), 'UTC') - interval '6 days' as week
    ), recent as (
      select e.type, e.created_at >= b.today as today
      from events e cross join bounds b
      where e.environment_id = ${environmentId}
        and e.created_at >= b.week
        and (e.type in (${sql.join(SIGN_UP_TYPES.map((type) => sql`${type}`), sql`, `)})
             or (e.type = ${SIGN_IN_TYPE} and e.on_behalf_of_type is null))
    )
    select
      count(*) filter (where type <> ${SIGN_IN_TYPE} and today)::int as sign_ups_today,
      count(*) filter (where type <> ${SIGN_IN_TYPE})::int as sign_ups_week,
      count(*) filter (where type = ${SIGN_IN_TYPE} and today)::int as sign_ins_today,
      count(*) filter (where type = ${SIGN_IN_TYPE})::int as sign_ins_week
    from recent`,
  );
}
