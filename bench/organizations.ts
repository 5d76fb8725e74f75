import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { startServerProcess, freePort, type ServerKind, type ServerProcess } from "@/lib/server/server-process";
import { describeFlags, parseFlags, UsageError, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl, openBenchDatabase } from "./bench-database";
import { loadTest, type LoadRequest, type LoadResult } from "./client-load";
import { createBenchEnvironment, prepareClientFixture, send, type ClientFixture } from "./client-session";
import { machineLoad } from "./machine";
import { benchServerEnv, ensureBuild } from "./production-server";
import { timeMemberPages, type MemberPageResult, MEMBER_PAGE_P95_TARGET_MS } from "./organization-members";
import { formatCount, formatMs, renderTable } from "./stats";

const FLAGS = {
  organizations: { default: 20, description: "organizations the boot probe's user belongs to" },
  seconds: { default: 10, description: "measured seconds per HTTP scenario" },
  warmup: { default: 3, description: "unmeasured seconds before each HTTP scenario", min: 0 },
  connections: { default: 32, description: "concurrent keep-alive connections" },
  next: { default: 1, description: "1 = measure `next start`, 0 = skip", min: 0 },
  fast: { default: 1, description: "1 = measure the fast path server (npm start), 0 = skip", min: 0 },
  build: { default: 1, description: "1 = rebuild first when sources changed, 0 = serve .next as it is", min: 0 },
  members: { default: 10_000, description: "members of the organization whose member list is paged (0 = skip that part)", min: 0 },
  iterations: { default: 200, description: "timed member-list calls per page position" },
  prewarm: { default: 20, description: "untimed member-list calls per page position first", min: 0 },
} satisfies Record<string, FlagSpec>;

export const ORGANIZATIONS_USAGE = `npm run bench -- organizations [options]
  The boot probe (GET /_svc/client) and a token refresh for a user in many organizations,
  one of them active, over HTTP against the production build (\`next start\` and the fast
  path server); then listMembers() of a large organization in-process, first, middle
  and last page.
${describeFlags(FLAGS)}
    BENCH_DATABASE_URL overrides the database (created and migrated if missing).`;

const PROBE_TARGET = { requestsPerSecond: 1_500, p99Ms: 50 };
const SERVER_LABELS: Record<ServerKind, string> = { "next-start": "next start", "fast-path": "fast path" };

type Scenario = "boot probe" | "refresh token";

interface Row {
  scenario: Scenario;
  server: string;
  result: LoadResult;
}

/**
 * Gives the fixture's user `count` organizations (the first one created is made the
 * session's active organization through the Client API, so the claims statement runs
 * on every refresh). Memberships are inserted directly: the bench measures reads.
 */
async function joinOrganizations(db: Database, baseUrl: string, fixture: ClientFixture, count: number): Promise<string> {
  const environmentId = fixture.environment.environmentId;
  const rows = await queryRows<{ id: string }>(db, sql`
    with created as (
      insert into organizations (environment_id, name, slug)
      select ${environmentId}::uuid, 'Bench organization ' || g, 'bench-' || g from generate_series(1, ${count}) g
      returning id, created_at
    ), joined as (
      insert into organization_memberships (environment_id, organization_id, user_id, role, created_at)
      select ${environmentId}::uuid, c.id, u.id, 'owner', c.created_at
      from created c cross join (select id from users where environment_id = ${environmentId}::uuid and email = ${fixture.email}) u
      returning organization_id, created_at
    )
    select organization_id as id from joined order by created_at, organization_id`);
  const first = rows[0]?.id;
  if (!first) throw new Error("no organizations were created for the bench user");
  await send(baseUrl, "POST", "/_svc/organizations/active", { "x-api-key": fixture.environment.publishableKey, cookie: fixture.cookie }, { organizationId: first });
  return first;
}

/** One request by hand first: the probe must list every organization and the active one, the refresh must carry org_id. */
async function precheck(scenario: Scenario, request: LoadRequest, organizations: number, active: string): Promise<void> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${scenario}: ${request.method} ${request.url} answered ${response.status}: ${text}`);
  if (scenario === "boot probe") {
    const probe = JSON.parse(text) as { organizations?: unknown[]; activeOrganizationId?: string | null };
    if (probe.organizations?.length !== organizations || probe.activeOrganizationId !== active) {
      throw new Error(`boot probe: expected ${organizations} organizations with ${active} active, got ${text.slice(0, 300)}`);
    }
  } else {
    const token = (JSON.parse(text) as { accessToken: string }).accessToken;
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { org_id?: string };
    if (claims.org_id !== active) throw new Error(`refresh token: expected org_id ${active}, got ${claims.org_id ?? "none"}`);
  }
}

export async function runOrganizationsBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  const kinds = (["next-start", "fast-path"] as const).filter((kind) => (kind === "next-start" ? flags.next : flags.fast));
  if (kinds.length === 0 && flags.members === 0) throw new UsageError("nothing to measure with --next 0 --fast 0 --members 0");
  process.env.GATEHOUSE_SECRET ||= randomBytes(48).toString("base64");
  const secret = process.env.GATEHOUSE_SECRET;
  console.log(
    [
      "Gatehouse bench: organizations",
      `  measures   boot probe and refresh for a user in ${flags.organizations} organizations at ${flags.connections} connections, ` +
        `${flags.seconds} s per scenario after ${flags.warmup} s warm-up; listMembers() of a ${formatCount(flags.members)}-member organization`,
      `  targets    boot probe >= ${formatCount(PROBE_TARGET.requestsPerSecond)} req/s with p99 < ${PROBE_TARGET.p99Ms} ms; ` +
        `member list p95 < ${MEMBER_PAGE_P95_TARGET_MS} ms at any page`,
      `  servers    ${kinds.map((kind) => SERVER_LABELS[kind]).join(", ") || "none"} (production build, GATEHOUSE_MODE=production)`,
      `  database   ${describeUrl(benchDatabaseUrl())}`,
      `  machine    ${machineLoad()} (a busy machine lowers every figure)`,
      "",
    ].join("\n"),
  );

  const handle = await openBenchDatabase(benchDatabaseUrl());
  try {
    const rows = kinds.length > 0 ? await measureHttp(handle.db, kinds, flags, secret) : [];
    const pages = flags.members > 0 ? await timeMemberPages(handle.db, flags.members, flags.iterations, flags.prewarm) : [];
    console.log(`\nOrganizations (machine now: ${machineLoad()})\n`);
    console.log(resultTable(rows, pages));
    const missed = [
      ...rows.filter((row) => row.scenario === "boot probe" && !probeMet(row.result)).map((row) => `boot probe (${row.server})`),
      ...pages.filter((page) => page.latency.p95 >= MEMBER_PAGE_P95_TARGET_MS).map((page) => `member list, ${page.position} page`),
    ];
    console.log(missed.length === 0 ? "\nAll targets met." : `\nTargets missed: ${missed.join(", ")}`);
  } finally {
    await handle.close();
  }
}

async function measureHttp(db: Database, kinds: readonly ServerKind[], flags: { organizations: number; build: number; connections: number; seconds: number; warmup: number }, secret: string): Promise<Row[]> {
  ensureBuild(Boolean(flags.build));
  const environment = await createBenchEnvironment("organizations");
  const started = await Promise.allSettled(kinds.map(async (kind) => startServerProcess({ kind, port: await freePort(), env: benchServerEnv(secret) })));
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  const rows: Row[] = [];
  try {
    const baseUrl = (servers[0] as ServerProcess).baseUrl;
    const fixture = await prepareClientFixture(baseUrl, environment);
    const active = await joinOrganizations(db, baseUrl, fixture, flags.organizations);
    for (const scenario of ["boot probe", "refresh token"] as const) {
      for (const server of servers) {
        const label = SERVER_LABELS[server.kind];
        const headers = { "x-api-key": environment.publishableKey, cookie: fixture.cookie };
        const request: LoadRequest =
          scenario === "boot probe"
            ? { url: `${server.baseUrl}/_svc/client`, method: "GET", headers }
            : { url: `${server.baseUrl}/_svc/auth/token`, method: "POST", headers };
        await precheck(scenario, request, flags.organizations, active);
        const result = await loadTest(request, { connections: flags.connections, seconds: flags.seconds, warmupSeconds: flags.warmup });
        console.log(`  ${scenario.padEnd(14)} ${label.padEnd(11)} ${formatCount(result.requestsPerSecond).padStart(6)} req/s  p99 ${formatMs(result.p99)} ms`);
        rows.push({ scenario, server: label, result });
      }
    }
  } catch (error) {
    for (const server of servers) console.error(`${SERVER_LABELS[server.kind]} output (last lines):\n${server.output()}`);
    throw error;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  return rows;
}

function probeMet(result: LoadResult): boolean {
  return result.failures === 0 && result.requestsPerSecond >= PROBE_TARGET.requestsPerSecond && result.p99 < PROBE_TARGET.p99Ms;
}

function resultTable(rows: Row[], pages: MemberPageResult[]): string {
  const http = rows.map(({ scenario, server, result }) => [
    `${scenario} (${server})`,
    formatCount(result.requestsPerSecond),
    formatMs(result.p50),
    "-",
    formatMs(result.p99),
    result.failures > 0
      ? `${formatCount(result.failures)} FAILED requests`
      : scenario === "boot probe"
        ? `${probeMet(result) ? "ok" : "MISSED"} (>= ${formatCount(PROBE_TARGET.requestsPerSecond)}/s, p99 < ${PROBE_TARGET.p99Ms} ms)`
        : "",
  ]);
  const lists = pages.map(({ position, latency }) => [
    `member list, ${position} page`,
    "-",
    formatMs(latency.p50),
    formatMs(latency.p95),
    formatMs(latency.p99),
    `${latency.p95 < MEMBER_PAGE_P95_TARGET_MS ? "ok" : "MISSED"} (p95 < ${MEMBER_PAGE_P95_TARGET_MS} ms)`,
  ]);
  return renderTable(
    [
      { header: "scenario" },
      { header: "req/s", align: "right" },
      { header: "p50 ms", align: "right" },
      { header: "p95 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "target" },
    ],
    [...http, ...lists],
  );
}
