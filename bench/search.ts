import fs from "node:fs";
import path from "node:path";
import type { Database } from "@/db/client";
import { searchUsers } from "@/lib/users/search-users";
import { describeFlags, parseFlags, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl, openBenchDatabase } from "./bench-database";
import { PlanInspector, type PlanReport } from "./explain";
import { machineLoad } from "./machine";
import { buildScenarios, KEYSET_P95_TARGET_MS, PAGE_LIMIT, type SearchRequest, type SearchScenario } from "./search-scenarios";
import { ensurePopulation } from "./seed-users";
import { elapsedSince, formatCount, formatMs, renderTable, summarize, type LatencySummary } from "./stats";
import { walkAllPages, WALK_PAGE_LIMIT } from "./search-walk";
import { verifySearchResults } from "./verify-search";

const FLAGS = {
  users: { default: 1_000_000, description: "users in the searched environment" },
  iterations: { default: 200, description: "timed calls per scenario" },
  warmup: { default: 20, description: "untimed calls per scenario first", min: 0 },
  walk: { default: 1, description: `1 = also time every page of a full walk (limit ${WALK_PAGE_LIMIT}), 0 = skip`, min: 0 },
  verify: { default: 1, description: "1 = first check every request's page against a plain reference query, 0 = skip", min: 0 },
  plans: { default: 0, description: "1 = print the full EXPLAIN ANALYZE of each scenario", min: 0 },
} satisfies Record<string, FlagSpec>;

export const SEARCH_USAGE = `npm run bench -- search [options]
  Times searchUsers() (lib/users/search-users.ts) against Postgres with a seeded population.
${describeFlags(FLAGS)}
    BENCH_DATABASE_URL overrides the database (created and migrated if missing).`;

interface ScenarioResult {
  scenario: SearchScenario;
  latency: LatencySummary;
  /** The request whose single slowest call was the worst, explained below the table. */
  slowest: { request: SearchRequest; ms: number };
  plans?: PlanReport[];
}

export async function runSearchBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  const url = benchDatabaseUrl();
  console.log(
    [
      "Gatehouse bench: user search",
      `  measures   searchUsers(db, environmentId, filter, {limit: ${PAGE_LIMIT}, cursor}) wall time per call, ` +
        `${flags.iterations} calls per scenario after ${flags.warmup} warm-up calls`,
      `  targets    p95 < 25 ms for email substring terms of 3+ characters, p95 < ${KEYSET_P95_TARGET_MS} ms for a keyset page at any depth`,
      `  database   ${describeUrl(url)}`,
      `  users      ${formatCount(flags.users)}`,
      `  machine    ${machineLoad()}`,
      "",
    ].join("\n"),
  );

  const handle = await openBenchDatabase(url);
  const inspector = new PlanInspector(url);
  try {
    const { environmentId } = await ensurePopulation(handle.db, flags.users);
    console.log("preparing scenarios (match counts, cursors, sample terms)…");
    const scenarios = await buildScenarios(handle.db, environmentId, flags.users);
    if (flags.verify) {
      const started = performance.now();
      console.log("checking every request's page against a plain reference query…");
      const checked = await verifySearchResults(handle.db, environmentId, scenarios);
      console.log(`  ${checked} pages identical (${formatMs(elapsedSince(started))} ms)`);
    }

    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const result = await timeScenario(handle.db, environmentId, scenario, flags.iterations, flags.warmup);
      console.log(`  ${scenario.name.padEnd(42)} p95 ${formatMs(result.latency.p95).padStart(6)} ms`);
      results.push(result);
    }
    for (const result of results) {
      const { request } = result.slowest;
      result.plans = await inspector.explain((db) =>
        searchUsers(db, environmentId, request.filter, { limit: PAGE_LIMIT, cursor: request.cursor }),
      );
    }

    const walk = flags.walk ? await walkAllPages(handle.db, environmentId, flags.users) : undefined;

    console.log(
      `\nsearchUsers at ${formatCount(flags.users)} users (limit ${PAGE_LIMIT}, ${flags.iterations} calls each; machine now: ${machineLoad()})\n`,
    );
    console.log(resultTable(results, walk));
    console.log("\nPlans (EXPLAIN ANALYZE of the slowest request of each scenario):");
    for (const { scenario, plans, slowest } of results) {
      if (!plans) continue;
      const term = scenario.requests.length > 1 ? ` [slowest term ${JSON.stringify(slowest.request.label)}]` : "";
      console.log(`- ${scenario.name}${term}:`);
      plans.forEach((plan, i) => {
        const step = plans.length > 1 ? `step ${i + 1}: ` : "";
        console.log(`    ${step}${formatMs(plan.executionMs)} ms exec, ${formatMs(plan.planningMs)} ms plan: ${plan.shape}`);
        if (flags.plans) console.log(plan.text.replace(/^/gm, "      "));
      });
    }
    const missed = results.filter((r) => r.scenario.p95TargetMs !== undefined && r.latency.p95 >= r.scenario.p95TargetMs);
    const walkMissed = walk !== undefined && walk.latency.p95 >= KEYSET_P95_TARGET_MS;
    console.log(
      missed.length === 0 && !walkMissed
        ? "\nAll targets met."
        : `\nTargets missed: ${[...missed.map((r) => r.scenario.name), ...(walkMissed ? ["full keyset walk"] : [])].join(", ")}`,
    );
    saveResults(flags.users, results, walk);
  } finally {
    await inspector.close();
    await handle.close();
  }
}

async function timeScenario(
  db: Database,
  environmentId: string,
  scenario: SearchScenario,
  iterations: number,
  warmup: number,
): Promise<ScenarioResult> {
  const call = (request: SearchRequest) =>
    searchUsers(db, environmentId, request.filter, { limit: PAGE_LIMIT, cursor: request.cursor });
  const { requests } = scenario;
  for (let i = 0; i < warmup; i++) await call(requests[i % requests.length] as SearchRequest);

  const samples: number[] = [];
  let slowest = { request: requests[0] as SearchRequest, ms: -1 };
  for (let i = 0; i < iterations; i++) {
    const request = requests[i % requests.length] as SearchRequest;
    const started = performance.now();
    await call(request);
    const ms = elapsedSince(started);
    samples.push(ms);
    if (ms > slowest.ms) slowest = { request, ms };
  }
  return { scenario, latency: summarize(samples), slowest };
}

function resultTable(results: ScenarioResult[], walk?: { pages: number; latency: LatencySummary }): string {
  const verdict = (p95: number, target?: number) =>
    target === undefined ? "" : `${p95 < target ? "ok" : "MISSED"} (<${target})`;
  const rows = results.map(({ scenario, latency }) => [
    scenario.name,
    scenario.term,
    scenario.matches === undefined ? "varies" : formatCount(scenario.matches),
    formatMs(latency.p50),
    formatMs(latency.p95),
    formatMs(latency.p99),
    verdict(latency.p95, scenario.p95TargetMs),
  ]);
  if (walk) {
    rows.push([
      `keyset, full walk (limit ${WALK_PAGE_LIMIT})`,
      `${formatCount(walk.pages)} pages`,
      "all",
      formatMs(walk.latency.p50),
      formatMs(walk.latency.p95),
      formatMs(walk.latency.p99),
      verdict(walk.latency.p95, KEYSET_P95_TARGET_MS),
    ]);
  }
  return renderTable(
    [
      { header: "scenario" },
      { header: "term" },
      { header: "matches", align: "right" },
      { header: "p50 ms", align: "right" },
      { header: "p95 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "p95 target" },
    ],
    rows,
  );
}

/** bench/results/ is gitignored: a JSON record for comparing runs, never committed. */
function saveResults(users: number, results: ScenarioResult[], walk?: { pages: number; latency: LatencySummary }): void {
  const dir = path.join(process.cwd(), "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `search-${users}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const record = {
    users,
    at: new Date().toISOString(),
    scenarios: results.map(({ scenario, latency, slowest, plans }) => ({
      name: scenario.name,
      term: scenario.term,
      matches: scenario.matches ?? null,
      latency,
      slowest: { label: slowest.request.label, ms: slowest.ms },
      plans: plans ?? [],
    })),
    walk: walk ?? null,
  };
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`results saved to ${path.relative(process.cwd(), file)}`);
}
