import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { createEnvironment } from "@/lib/environments/create-environment";
import { listMembers } from "@/lib/organizations/members";
import { elapsedSince, formatCount, formatSeconds, summarize, type LatencySummary } from "./stats";

export const MEMBER_PAGE_P95_TARGET_MS = 5;
/** The Client API's default page size. */
const PAGE_LIMIT = 20;

export interface MemberPageResult {
  position: "first" | "middle" | "last";
  latency: LatencySummary;
}

/**
 * A fresh environment with one organization of `count` members, each a user of its
 * own, joined one microsecond apart (the keyset order), in two INSERT … SELECTs.
 */
async function seedOrganization(db: Database, count: number): Promise<{ environmentId: string; organizationId: string }> {
  const started = performance.now();
  const environment = await createEnvironment(db, { name: `organizations bench ${new Date().toISOString()}` });
  const environmentId = environment.environmentId;
  const [organization] = await queryRows<{ id: string }>(
    db,
    sql`insert into organizations (environment_id, name, slug) values (${environmentId}::uuid, 'Members bench', 'members-bench') returning id`,
  );
  if (!organization) throw new Error("the bench organization was not created");
  await db.execute(sql`
    with people as (
      insert into users (environment_id, email, first_name, last_name, created_at, updated_at)
      select ${environmentId}::uuid, 'member' || g || '@bench.example', 'Member', 'Number ' || g,
             timestamptz '2024-01-01' + g * interval '1 microsecond', timestamptz '2024-01-01' + g * interval '1 microsecond'
      from generate_series(1, ${count}) g
      returning id, created_at
    )
    insert into organization_memberships (environment_id, organization_id, user_id, role, created_at, updated_at)
    select ${environmentId}::uuid, ${organization.id}::uuid, id, case when created_at = timestamptz '2024-01-01' + interval '1 microsecond' then 'owner' else 'member' end,
           created_at, created_at
    from people`);
  await db.execute(sql`analyze organization_memberships`);
  await db.execute(sql`analyze users`);
  console.log(`seeded an organization of ${formatCount(count)} members in ${formatSeconds(elapsedSince(started))}`);
  return { environmentId, organizationId: organization.id };
}

/** The cursor that starts a page at `offset` in the keyset order: the user id of the member just before it. */
async function cursorAt(db: Database, organizationId: string, offset: number): Promise<string | undefined> {
  if (offset === 0) return undefined;
  const [row] = await queryRows<{ user_id: string }>(
    db,
    sql`select user_id from organization_memberships where organization_id = ${organizationId}::uuid
        order by created_at, id offset ${offset - 1} limit 1`,
  );
  return row?.user_id;
}

/** listMembers() wall time per call at the first, middle and last page of a `count`-member organization. */
export async function timeMemberPages(db: Database, count: number, iterations: number, warmup: number): Promise<MemberPageResult[]> {
  const { environmentId, organizationId } = await seedOrganization(db, count);
  const positions = { first: 0, middle: Math.floor(count / 2), last: Math.max(0, count - PAGE_LIMIT) } as const;
  const results: MemberPageResult[] = [];
  for (const [position, offset] of Object.entries(positions) as [MemberPageResult["position"], number][]) {
    const cursor = await cursorAt(db, organizationId, offset);
    const call = () => listMembers(db, environmentId, organizationId, { limit: PAGE_LIMIT, cursor });
    const page = await call();
    if (page.items.length === 0) throw new Error(`member list, ${position} page: no members returned`);
    for (let i = 0; i < warmup; i++) await call();
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const begin = performance.now();
      await call();
      samples.push(elapsedSince(begin));
    }
    const latency = summarize(samples);
    console.log(`  member list, ${position.padEnd(6)} page  p95 ${latency.p95.toFixed(2)} ms`);
    results.push({ position, latency });
  }
  return results;
}
