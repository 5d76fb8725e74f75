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
 * The dashboard home's figures, counted in SQL over the events of the environment.
 * Days are UTC days (the server's clock, read by Postgres): "today" starts at
 * 00:00 UTC, "last 7 days" at 00:00 UTC six days earlier. One range scan of the
 * (environment, created_at) index over the week's events.
 */
export async function readActivitySummary(db: Database, environmentId: string): Promise<ActivitySummary> {
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
