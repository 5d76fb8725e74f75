import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { readActivitySummary } from "@/lib/audit/activity-summary";
import { createSecretKey } from "@/lib/environments/api-keys";
import { createOperator } from "@/lib/operators/create-operator";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { freePort, startServerProcess, type ServerProcess } from "@/lib/server/server-process";
import { searchUsers } from "@/lib/users/search-users";
import { describeFlags, parseFlags, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl, openBenchDatabase } from "./bench-database";
import { PlanInspector } from "./explain";
import { machineLoad } from "./machine";
import { benchServerEnv, ensureBuild } from "./production-server";
import { ensureEvents } from "./seed-events";
import { ensurePopulation } from "./seed-users";
import { elapsedSince, formatCount, formatMs, renderTable, summarize, type LatencySummary } from "./stats";

const FLAGS = {
  users: { default: 1_000_000, description: "users in the environment the dashboard shows" },
  events: { default: 1_000_000, description: "audit events in that environment" },
  iterations: { default: 200, description: "timed requests per scenario" },
  warmup: { default: 20, description: "untimed requests per scenario first", min: 0 },
  concurrency: { default: 4, description: "requests in flight at once" },
  build: { default: 1, description: "1 = rebuild first when sources changed, 0 = serve .next as it is", min: 0 },
} satisfies Record<string, FlagSpec>;

export const DASHBOARD_USAGE = `npm run bench -- dashboard [options]
  Server-rendered dashboard pages (users list: first page, a later keyset page, an
  email search; the overview) signed in as a viewer operator, on the production
  build, at a million users; the Server API's user search and audit log beside them;
  EXPLAIN ANALYZE of the queries behind them.
${describeFlags(FLAGS)}
    BENCH_DATABASE_URL overrides the database (created and migrated if missing).`;

const P95_TARGET_MS = 300;
const VIEWER_PASSWORD = "bench viewer: quiet lighthouse orchard";
/** Rare (~40 users per million) and common email fragments of the seeded vocabulary (bench/seed-vocabulary.ts). */
const RARE_FRAGMENT = "quisenb";
const COMMON_FRAGMENT = "mary.gar";

/**
 * The users page's URL. Its query parameter names are documented at the top of
 * app/(dashboard)/dashboard/users/page.tsx: adjust them here, in one place.
 */
function usersPageUrl(environmentId: string, options: { email?: string } = {}): string {
  const query = new URLSearchParams({ env: environmentId });
  if (options.email) query.set("email", options.email);
  return `/dashboard/users?${query}`;
}

/** The page's "next page" link: the first href carrying a cursor (HTML-escaped `&`). */
function nextPageHref(html: string): string | null {
  const href = /href="(\/dashboard\/users\?[^"]*cursor=[^"]*)"/.exec(html)?.[1];
  return href ? href.replace(/&amp;/g, "&") : null;
}

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Text the answer must contain, so a sign-in page or an error page never passes as fast. */
  expect?: string;
}

interface Row {
  scenario: Scenario;
  latency: LatencySummary;
  failures: number;
}

export async function runDashboardBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  // A fixed secret for the bench database's sealed keys, so a reused population's
  // environments stay readable run after run (never a production secret: bench only).
  process.env.GATEHOUSE_SECRET ||= "bench-only-dashboard-secret-0f3a9c1e7b5d2f4a6c8e0b1d3f5a7c9e";
  const secret = process.env.GATEHOUSE_SECRET;
  const url = benchDatabaseUrl();
  console.log(
    [
      "Gatehouse bench: dashboard",
      `  measures   server-rendered pages and Server API calls, ${flags.iterations} requests per scenario at ${flags.concurrency} in flight, after ${flags.warmup} warm-up requests`,
      `  target     p95 < ${P95_TARGET_MS} ms for each page`,
      `  database   ${describeUrl(url)}`,
      `  data       ${formatCount(flags.users)} users, ${formatCount(flags.events)} audit events in one environment`,
      `  machine    ${machineLoad()}`,
      "",
    ].join("\n"),
  );

  const handle = await openBenchDatabase(url);
  let server: ServerProcess | undefined;
  try {
    const { environmentId } = await ensurePopulation(handle.db, flags.users);
    const someUser = await userAtDepth(handle.db, environmentId, 0.5);
    await ensureEvents(handle.db, environmentId, flags.events, someUser);
    await explainQueries(url, environmentId, someUser);

    const { secretKey } = await createSecretKey(handle.db, { id: environmentId, kind: "development" }, "dashboard bench");
    const viewer = await prepareViewer(handle.db);

    ensureBuild(Boolean(flags.build));
    server = await startServerProcess({ kind: "next-start", port: await freePort(), env: benchServerEnv(secret) });
    console.log(`next start up on port ${server.port}`);
    const cookie = await signInViewer(server.baseUrl, viewer.email);
    const scenarios = await buildScenarios(server.baseUrl, environmentId, cookie, secretKey, someUser);

    const rows: Row[] = [];
    for (const scenario of scenarios) {
      const row = await timeScenario(server.baseUrl, scenario, flags);
      console.log(`  ${scenario.name.padEnd(44)} p95 ${formatMs(row.latency.p95).padStart(6)} ms${row.failures ? `  ${row.failures} FAILED` : ""}`);
      rows.push(row);
    }
    console.log(`\nDashboard at ${formatCount(flags.users)} users (${flags.iterations} requests each, ${flags.concurrency} in flight; machine now: ${machineLoad()})\n`);
    console.log(
      renderTable(
        [{ header: "scenario" }, { header: "request" }, { header: "p50 ms", align: "right" }, { header: "p95 ms", align: "right" }, { header: "p99 ms", align: "right" }, { header: "failed", align: "right" }, { header: "target" }],
        rows.map(({ scenario, latency, failures }) => [
          scenario.name,
          `${scenario.method} ${scenario.path.length > 60 ? `${scenario.path.slice(0, 57)}…` : scenario.path}`,
          formatMs(latency.p50),
          formatMs(latency.p95),
          formatMs(latency.p99),
          String(failures),
          scenario.path.startsWith("/dashboard") ? `${latency.p95 < P95_TARGET_MS ? "ok" : "MISSED"} (<${P95_TARGET_MS})` : "",
        ]),
      ),
    );
  } catch (error) {
    if (server) console.error(`server output (last lines):\n${server.output()}`);
    throw error;
  } finally {
    await server?.stop();
    await handle.close();
  }
}

/** A viewer operator with a password, made as the CLI does: created, then its one-time link spent on the password. */
async function prepareViewer(db: Database): Promise<{ email: string }> {
  const email = `bench-viewer-${randomBytes(4).toString("hex")}@example.com`;
  const { signInLink } = await createOperator(db, { email, role: "viewer" }, SYSTEM_ACTOR);
  const token = new URL(signInLink.url).searchParams.get("token") ?? "";
  const context = { requestId: "req_bench", ip: "127.0.0.1", userAgent: "bench", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
  await setOperatorPassword(db, { token, password: VIEWER_PASSWORD }, context);
  return { email };
}

/** Cookie jar of one sign-in: name=value pairs from Set-Cookie, sent back as a Cookie header. */
function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** An attribute's value as HTML wrote it, unescaped. */
function unescapeHtml(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * Signs in as a browser without JavaScript does (the dashboard's only way in is its
 * sign-in form, a server action; next-auth's own endpoints are not served): reads the
 * form's hidden fields from the page, posts them with the credentials, keeps the cookie.
 */
async function signInViewer(baseUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const page = await fetch(`${baseUrl}/dashboard/sign-in`);
  cookiesOf(page, jar);
  const html = await page.text();
  const form = /<form[^>]*>([\s\S]*?)<\/form>/g;
  const body = new FormData();
  for (const match of html.matchAll(form)) {
    if (!match[1]?.includes('name="password"')) continue;
    for (const input of match[1].matchAll(/<input[^>]*>/g)) {
      const name = /\sname="([^"]*)"/.exec(input[0])?.[1];
      const value = /\svalue="([^"]*)"/.exec(input[0])?.[1] ?? "";
      if (name && /type="hidden"/.test(input[0])) body.set(unescapeHtml(name), unescapeHtml(value));
    }
  }
  body.set("email", email);
  body.set("password", VIEWER_PASSWORD);
  const signedIn = await fetch(`${baseUrl}/dashboard/sign-in`, { method: "POST", redirect: "manual", headers: { cookie: header(), origin: baseUrl }, body });
  cookiesOf(signedIn, jar);
  const cookie = header();
  const home = await fetch(`${baseUrl}/dashboard`, { headers: { cookie }, redirect: "manual" });
  if (home.status !== 200) throw new Error(`signing in as the viewer failed: /dashboard answered ${home.status} (sign-in answered ${signedIn.status} ${signedIn.headers.get("location")})`);
  return cookie;
}

async function userAtDepth(db: Database, environmentId: string, depth: number): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from users where environment_id = ${environmentId} order by created_at desc, id desc
        offset (select floor(count(*) * ${depth}::float8)::bigint from users where environment_id = ${environmentId}) limit 1`,
  );
  if (!row) throw new Error("no users seeded");
  return row.id;
}

async function buildScenarios(baseUrl: string, environmentId: string, cookie: string, secretKey: string, deepUser: string): Promise<Scenario[]> {
  const page = { cookie };
  const api = { authorization: `Bearer ${secretKey}`, "content-type": "application/json" };
  const scenarios: Scenario[] = [{ name: "overview page", method: "GET", path: `/dashboard?env=${environmentId}`, headers: page, expect: "data-testid=\"user-count\"" }];

  const first = await fetch(`${baseUrl}${usersPageUrl(environmentId)}`, { headers: page, redirect: "manual" });
  const html = await first.text();
  if (first.status === 200) {
    scenarios.push({ name: "users page, first page", method: "GET", path: usersPageUrl(environmentId), headers: page });
    // A later page as an operator reaches it: the "next page" link, followed a few times.
    let next = nextPageHref(html);
    for (let hop = 1; next && hop < 5; hop++) next = nextPageHref(await (await fetch(`${baseUrl}${next}`, { headers: page })).text()) ?? next;
    if (next) scenarios.push({ name: "users page, later keyset page", method: "GET", path: next, headers: page });
    else console.log("  users page: no next-page link found (href with cursor=); later page skipped");
    scenarios.push({ name: `users page, email search "${RARE_FRAGMENT}"`, method: "GET", path: usersPageUrl(environmentId, { email: RARE_FRAGMENT }), headers: page });
    scenarios.push({ name: `users page, email search "${COMMON_FRAGMENT}"`, method: "GET", path: usersPageUrl(environmentId, { email: COMMON_FRAGMENT }), headers: page });
  } else {
    console.log(`  ${usersPageUrl(environmentId)} answered ${first.status}: not built yet; measuring the Server API search instead`);
  }

  const search = "/api/server/v1/users/search?limit=20";
  scenarios.push({ name: "API search, first page", method: "POST", path: search, headers: api, body: "{}" });
  scenarios.push({ name: "API search, keyset page at 50 %", method: "POST", path: `${search}&cursor=${deepUser}`, headers: api, body: "{}" });
  scenarios.push({ name: `API search, email "${RARE_FRAGMENT}"`, method: "POST", path: search, headers: api, body: JSON.stringify({ email: RARE_FRAGMENT }) });
  scenarios.push({ name: `API search, email "${COMMON_FRAGMENT}"`, method: "POST", path: search, headers: api, body: JSON.stringify({ email: COMMON_FRAGMENT }) });
  const audit = await (await fetch(`${baseUrl}/api/server/v1/audit-events?limit=20`, { headers: api })).json() as { nextCursor: string | null };
  scenarios.push({ name: "API audit events, first page", method: "GET", path: "/api/server/v1/audit-events?limit=20", headers: api });
  if (audit.nextCursor) scenarios.push({ name: "API audit events, second page", method: "GET", path: `/api/server/v1/audit-events?limit=20&cursor=${audit.nextCursor}`, headers: api });
  scenarios.push({ name: "API audit events, one user's", method: "GET", path: `/api/server/v1/audit-events?limit=20&userId=${deepUser}`, headers: api });
  scenarios.push({ name: "API activity summary", method: "GET", path: "/api/server/v1/activity-summary", headers: api });
  return scenarios;
}

async function timeScenario(baseUrl: string, scenario: Scenario, flags: { iterations: number; warmup: number; concurrency: number }): Promise<Row> {
  const once = async (): Promise<{ ms: number; ok: boolean }> => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${scenario.path}`, { method: scenario.method, headers: scenario.headers, body: scenario.body, redirect: "manual" });
    const text = await response.text();
    return { ms: elapsedSince(started), ok: response.status === 200 && (!scenario.expect || text.includes(scenario.expect)) };
  };
  const run = async (count: number) => {
    const results: { ms: number; ok: boolean }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: flags.concurrency }, async () => {
        while (next < count) {
          next++;
          results.push(await once());
        }
      }),
    );
    return results;
  };
  const warm = await run(flags.warmup);
  if (warm.length > 0 && !warm.some((result) => result.ok)) throw new Error(`${scenario.name}: every warm-up request failed (${scenario.method} ${scenario.path})`);
  const results = await run(flags.iterations);
  return { scenario, latency: summarize(results.map((result) => result.ms)), failures: results.filter((result) => !result.ok).length };
}

/** EXPLAIN ANALYZE of the queries behind the pages, as the service sends them (PlanInspector replays its statements). */
async function explainQueries(url: string, environmentId: string, deepUser: string): Promise<void> {
  const inspector = new PlanInspector(url);
  const page = { limit: 20 };
  const plans: [string, (db: Database) => Promise<unknown>][] = [
    ["search, first page", (db) => searchUsers(db, environmentId, {}, page)],
    ["search, keyset page at 50 %", (db) => searchUsers(db, environmentId, {}, { ...page, cursor: deepUser })],
    [`search, email "${RARE_FRAGMENT}"`, (db) => searchUsers(db, environmentId, { email: RARE_FRAGMENT }, page)],
    [`search, email "${COMMON_FRAGMENT}"`, (db) => searchUsers(db, environmentId, { email: COMMON_FRAGMENT }, page)],
    ["search, email \"zzq\" (no match)", (db) => searchUsers(db, environmentId, { email: "zzq" }, page)],
    ["audit events, first page", (db) => listAuditEvents(db, environmentId, page)],
    ["audit events, type user.banned", (db) => listAuditEvents(db, environmentId, { ...page, type: "user.banned" })],
    ["audit events, type organization.* (none)", (db) => listAuditEvents(db, environmentId, { ...page, type: "organization.*" })],
    ["audit events, one user's", (db) => listAuditEvents(db, environmentId, { ...page, userId: deepUser })],
    ["audit events, actor key_bench", (db) => listAuditEvents(db, environmentId, { ...page, actor: "key_bench" })],
    ["audit events, actor (none)", (db) => listAuditEvents(db, environmentId, { ...page, actor: "nobody" })],
    ["audit events, a day 20 days ago", (db) => listAuditEvents(db, environmentId, { ...page, after: new Date(Date.now() - 20 * 86_400_000).toISOString(), before: new Date(Date.now() - 19 * 86_400_000).toISOString() })],
    ["activity summary", (db) => readActivitySummary(db, environmentId)],
  ];
  console.log("\nPlans (EXPLAIN ANALYZE):");
  try {
    for (const [name, run] of plans) {
      const reports = await inspector.explain(run);
      reports.forEach((report, i) => {
        console.log(`- ${name}${reports.length > 1 ? ` [statement ${i + 1}]` : ""}: ${formatMs(report.executionMs)} ms exec: ${report.shape}`);
      });
    }
  } finally {
    await inspector.close();
  }
  console.log("");
}
