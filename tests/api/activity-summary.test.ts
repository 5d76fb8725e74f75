import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, queryRows } from "@/db/client";
import { events } from "@/db/schema";
import { ACTIVITY_SUMMARY_MAX_AGE_SECONDS, readActivitySummary } from "@/lib/audit/activity-summary";
import { call, expectProblem, serverApi } from "../helpers/api";
import { createUser, newEnvironment, openSession, revokedSecretKey, uniqueEmail } from "../helpers/fixtures";

const DAY = 24 * 3600 * 1000;

/** 00:00 UTC today, by the database's clock (the one the summary reads). */
async function utcMidnight(): Promise<Date> {
  const [row] = await queryRows<{ today: string }>(getDb(), sql`select to_json(date_trunc('day', now(), 'UTC'))#>>'{}' as today`);
  return new Date(row?.today ?? "");
}

/** An instant `microseconds` away from `base` (negative: before), exact to the microsecond in SQL. */
function at(base: Date, microseconds = 0) {
  return sql`${base.toISOString()}::timestamptz + ${microseconds} * interval '1 microsecond'`;
}

type Seed = { type: string; createdAt: ReturnType<typeof at>; onBehalfOf?: boolean };

async function seed(environmentId: string, rows: Seed[]) {
  for (const row of rows) {
    await getDb().execute(sql`
      insert into ${events} (environment_id, type, actor_type, actor_id, on_behalf_of_type, on_behalf_of_id, data, request_id, created_at)
      values (${environmentId}, ${row.type}, 'user', 'u', ${row.onBehalfOf ? "operator" : null}, ${row.onBehalfOf ? "op_1" : null}, '{}'::jsonb, 'req_t', ${row.createdAt})`);
  }
}

describe("GET /api/server/v1/activity-summary", () => {
  it("counts sign-ups and sign-ins of today and the last 7 UTC days exactly at the day boundaries", async () => {
    const env = await newEnvironment();
    const midnight = await utcMidnight();
    const weekStart = new Date(midnight.getTime() - 6 * DAY);
    await seed(env.environmentId, [
      // Today, from its first microsecond.
      { type: "user.signed_up", createdAt: at(midnight) },
      { type: "user.created", createdAt: at(midnight, 1) },
      { type: "session.created", createdAt: at(midnight) },
      { type: "session.created", createdAt: at(midnight, 5_000_000) },
      // Yesterday's last microsecond: the week, not today.
      { type: "user.signed_up", createdAt: at(midnight, -1) },
      { type: "session.created", createdAt: at(midnight, -1) },
      // The week's first microsecond, and the one before it (not counted).
      { type: "user.created", createdAt: at(weekStart) },
      { type: "session.created", createdAt: at(weekStart) },
      { type: "user.signed_up", createdAt: at(weekStart, -1) },
      { type: "session.created", createdAt: at(weekStart, -1) },
      // Not sign-ups or sign-ins: an impersonation's session, other events.
      { type: "session.created", createdAt: at(midnight, 10), onBehalfOf: true },
      { type: "user.updated", createdAt: at(midnight, 10) },
      { type: "session.revoked", createdAt: at(midnight, 10) },
      { type: "user.impersonation_started", createdAt: at(midnight, 10), onBehalfOf: true },
    ]);
    const other = await newEnvironment();
    await seed(other.environmentId, [
      { type: "user.signed_up", createdAt: at(midnight, 2) },
      { type: "session.created", createdAt: at(midnight, 2) },
    ]);

    const res = await env.api.get("/activity-summary");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ users: 0, signUps: { today: 2, last7Days: 4 }, signIns: { today: 2, last7Days: 4 } });
    expect((await other.api.get("/activity-summary")).body).toEqual({ users: 0, signUps: { today: 1, last7Days: 1 }, signIns: { today: 1, last7Days: 1 } });
  });

  it("counts users as /users/count does and a real creation and sign-in as they happen", async () => {
    const env = await newEnvironment();
    const a = await createUser(env.api, { email: uniqueEmail() });
    const b = await createUser(env.api, { email: uniqueEmail() });
    await openSession(env.environmentId, a.id);
    expect((await env.api.delete(`/users/${b.id}`)).status).toBeLessThan(300);
    const res = await env.api.get("/activity-summary");
    expect(res.body).toEqual({ users: 1, signUps: { today: 2, last7Days: 2 }, signIns: { today: 1, last7Days: 1 } });
    expect((await env.api.get("/users/count")).body).toEqual({ count: 1 });
  });

  it("reuses an environment's counts for 30 seconds (concurrent callers share one count), then counts again", async () => {
    const env = await newEnvironment();
    const first = await readActivitySummary(getDb(), env.environmentId);
    expect(first.signUps.today).toBe(0);
    await createUser(env.api, { email: uniqueEmail() });
    const [again, alongside] = await Promise.all([env.api.get("/activity-summary"), readActivitySummary(getDb(), env.environmentId)]);
    expect(again.body).toEqual(first);
    expect(alongside).toEqual(first);
    const later = await readActivitySummary(getDb(), env.environmentId, Date.now() + ACTIVITY_SUMMARY_MAX_AGE_SECONDS * 1000);
    expect(later).toMatchObject({ users: 1, signUps: { today: 1, last7Days: 1 } });
  });

  it("is 401 without a valid secret key, ignores query parameters and refuses other methods with 405", async () => {
    const env = await newEnvironment();
    expectProblem(await call("GET", "/api/server/v1/activity-summary"), 401, "unauthorized");
    expectProblem(await serverApi(await revokedSecretKey(env.environmentId)).get("/activity-summary"), 401, "unauthorized");
    expectProblem(await serverApi(env.publishableKey).get("/activity-summary"), 401, "unauthorized");
    expect((await env.api.get("/activity-summary?days=30")).status).toBe(200);
    expect((await env.api.post("/activity-summary", {})).status).toBe(405);
  });
});
