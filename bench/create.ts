import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { ARGON2_OPTIONS } from "@/lib/auth/password-hasher";
import { createEnvironment } from "@/lib/environments/create-environment";
import { describeFlags, parseFlags, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl, openBenchDatabase } from "./bench-database";
import { measureHashRate, type RateResult } from "./hash-rate";
import { loadCreateUsers, type CreateLoadResult } from "./http-load";
import { machineLoad } from "./machine";
import { startServerProcess } from "@/lib/server/server-process";
import { benchServerEnv, ensureBuild } from "./production-server";
import { formatCount, formatMs, renderTable } from "./stats";

const FLAGS = {
  concurrency: { default: 8, description: "requests (and hashes) in flight at once" },
  seconds: { default: 15, description: "total length of the timed HTTP load, split over the rounds" },
  rounds: { default: 3, description: "alternating rounds of raw hashing and HTTP load" },
  "overhead-seconds": { default: 5, description: "length of a passwordless create load that prices the path without the hash (0 = skip)", min: 0 },
  port: { default: 3999, description: "port for the production server" },
} satisfies Record<string, FlagSpec>;

export const CREATE_USAGE = `npm run bench -- create [options]
  Users created per second through POST /api/server/v1/users on \`next start\`,
  next to raw argon2id hashes per second at the same concurrency.
${describeFlags(FLAGS)}`;

/** The API should spend its time hashing: anything under this share of the raw rate is overhead worth finding. */
const TARGET_RATIO = 0.7;
const APP_NAME = "bench-create";
/** A fixed 48-character test value: the bench environment's sealed keys only need to open within this run. */
const BENCH_SECRET = "bench-only-master-secret-0123456789abcdefghijklm";

interface Round {
  hash: RateResult;
  api: CreateLoadResult;
}

export async function runCreateBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  const url = benchDatabaseUrl();
  const roundSeconds = flags.seconds / flags.rounds;
  const argon = `argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`;
  console.log(
    [
      "Gatehouse bench: user creation",
      `  measures   users created per second via POST /api/server/v1/users on next start,`,
      `             against raw ${argon} hashes per second (hashPassword, in this process, server idle)`,
      `  method     ${flags.rounds} rounds of ${roundSeconds.toFixed(1)} s hashing + ${roundSeconds.toFixed(1)} s HTTP load, alternating order, ` +
        `${flags.concurrency} in flight in both`,
      `  target     API rate >= ${TARGET_RATIO * 100} % of the raw hash rate`,
      `  database   ${describeUrl(url)}`,
      `  machine    ${machineLoad()}`,
      "",
    ].join("\n"),
  );

  ensureBuild(true);
  const handle = await openBenchDatabase(url);
  let environmentId: string | undefined;
  try {
    await removeEarlierRuns(handle.db);
    const environment = await createEnvironment(handle.db, { name: APP_NAME });
    environmentId = environment.environmentId;

    console.log(`starting the production server (npm start's fast path) on port ${flags.port}…`);
    const server = await startServerProcess({ kind: "fast-path", port: flags.port, env: { ...benchServerEnv(BENCH_SECRET), DATABASE_URL: url } });
    const rounds: Round[] = [];
    let overhead: CreateLoadResult | undefined;
    try {
      const runId = randomBytes(4).toString("hex");
      const load = (seconds: number, label: string, withPassword = true) =>
        loadCreateUsers({ baseUrl: server.baseUrl, secretKey: environment.secretKey, concurrency: flags.concurrency, seconds, emailPrefix: `${label}-${runId}`, withPassword });

      // First requests pay for module loading and connection pools; keep them out of the numbers.
      console.log("warming up (3 s)…");
      const warmUp = await load(3, "warm");
      if (warmUp.created === 0) throw new Error(`the warm-up created no user (statuses ${JSON.stringify(warmUp.statusCounts)})`);

      for (let i = 0; i < flags.rounds; i++) {
        const measureHash = () => measureHashRate(flags.concurrency, roundSeconds * 1000);
        const measureApi = () => load(roundSeconds, `round${i}`);
        // Alternating which goes first cancels a steady drift in the machine's load.
        let hash: RateResult;
        let api: CreateLoadResult;
        if (i % 2 === 0) {
          hash = await measureHash();
          api = await measureApi();
        } else {
          api = await measureApi();
          hash = await measureHash();
        }
        rounds.push({ hash, api });
        console.log(`  round ${i + 1}/${flags.rounds}: ${hash.perSecond.toFixed(1)} hashes/s, ${api.createdPerSecond.toFixed(1)} users/s via API`);
      }
      if (flags["overhead-seconds"] > 0) {
        console.log(`creating users without a password (no hash), ${flags["overhead-seconds"]} s…`);
        overhead = await load(flags["overhead-seconds"], "bare", false);
        console.log(`  ${overhead.createdPerSecond.toFixed(1)} users/s`);
      }
    } finally {
      await server.stop();
      console.log("server stopped");
    }

    const stored = await countUsers(handle.db, environmentId);
    printReport(flags.concurrency, rounds, overhead, stored);
    saveResults({ concurrency: flags.concurrency, rounds, overhead, stored, machine: machineLoad() });
  } finally {
    // The created users are only evidence for this run; drop them with their environment.
    if (environmentId) await handle.db.execute(sql`delete from applications a using environments e where e.application_id = a.id and e.id = ${environmentId}`);
    await handle.close();
  }
}

/** A run killed halfway leaves its environment behind; the next run clears it. */
async function removeEarlierRuns(db: Database): Promise<void> {
  await db.execute(sql`delete from applications where name = ${APP_NAME}`);
}

async function countUsers(db: Database, environmentId: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select count(*) as n from users where environment_id = ${environmentId}`);
  return Number(row?.n ?? 0);
}

function printReport(concurrency: number, rounds: Round[], overhead: CreateLoadResult | undefined, stored: number): void {
  const hashes = rounds.reduce((sum, r) => sum + r.hash.completed, 0);
  const hashSeconds = rounds.reduce((sum, r) => sum + r.hash.seconds, 0);
  const created = rounds.reduce((sum, r) => sum + r.api.created, 0);
  const apiSeconds = rounds.reduce((sum, r) => sum + r.api.seconds, 0);
  const hashRate = hashes / hashSeconds;
  const apiRate = created / apiSeconds;
  const ratio = apiRate / hashRate;

  console.log(`\nuser creation at ${concurrency} in flight (machine now: ${machineLoad()})\n`);
  const rows = rounds.map((r, i) => [
    `round ${i + 1}`,
    r.hash.perSecond.toFixed(1),
    formatMs(r.hash.latency.p50),
    r.api.createdPerSecond.toFixed(1),
    formatMs(r.api.latencyMs.p50),
    formatMs(r.api.latencyMs.p99),
    `${((r.api.createdPerSecond / r.hash.perSecond) * 100).toFixed(1)} %`,
  ]);
  rows.push(["all rounds", hashRate.toFixed(1), "", apiRate.toFixed(1), "", "", `${(ratio * 100).toFixed(1)} %`]);
  console.log(
    renderTable(
      [
        { header: "" },
        { header: "raw hashes/s", align: "right" },
        { header: "hash p50 ms", align: "right" },
        { header: "API users/s", align: "right" },
        { header: "API p50 ms", align: "right" },
        { header: "API p99 ms", align: "right" },
        { header: "API / raw", align: "right" },
      ],
      rows,
    ),
  );
  console.log(`\nAPI create rate / raw hash rate: ${(ratio * 100).toFixed(1)} %  (target >= ${TARGET_RATIO * 100} %: ${ratio >= TARGET_RATIO ? "ok" : "MISSED"})`);
  if (overhead && overhead.createdPerSecond > 0) {
    // Both costs come out of the same cores: at H hashes/s and O bare creates/s, both
    // CPU-bound, a create with a hash can reach about 1 / (1/H + 1/O) per second.
    const ceiling = 1 / (1 / hashRate + 1 / overhead.createdPerSecond);
    console.log(
      `without a password the API creates ${overhead.createdPerSecond.toFixed(1)} users/s (p50 ${formatMs(overhead.latencyMs.p50)} ms): ` +
        `${formatMs(1000 / overhead.createdPerSecond)} ms of the machine per create besides the hash's ${formatMs(1000 / hashRate)} ms.\n` +
        `If both are CPU-bound, hashed creates top out near ${ceiling.toFixed(1)} users/s (${((ceiling / hashRate) * 100).toFixed(0)} % of the raw hash rate).`,
    );
  }
  const statuses = new Map<string, number>();
  for (const r of rounds) for (const [status, count] of Object.entries(r.api.statusCounts)) statuses.set(status, (statuses.get(status) ?? 0) + count);
  const failed = rounds.reduce((sum, r) => sum + r.api.failed, 0);
  console.log(
    `responses: ${[...statuses].map(([status, count]) => `${status} x${count}`).join(", ") || "none"}; ` +
      `failed requests: ${failed}; users stored (warm-up and no-password runs included): ${formatCount(stored)}`,
  );
}

/** bench/results/ is gitignored: a JSON record for comparing runs, never committed. */
function saveResults(record: Record<string, unknown>): void {
  const dir = path.join(process.cwd(), "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `create-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...record }, null, 2)}\n`);
  console.log(`results saved to ${path.relative(process.cwd(), file)}`);
}
