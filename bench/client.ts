import { randomBytes } from "node:crypto";
import os from "node:os";
import { hashPassword } from "@/lib/auth/password-hasher";
import { benchServerEnv, ensureBuild } from "./production-server";
import { freePort, startServerProcess, type ServerKind, type ServerProcess } from "@/lib/server/server-process";
import { describeFlags, parseFlags, UsageError, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl } from "./bench-database";
import { loadTest, verifyRate, type LoadRequest, type LoadResult } from "./client-load";
import { mfaSignInLoad, precheckMfaSignIn, seedMfaUsers } from "./client-mfa";
import { BENCH_PASSWORD, createBenchEnvironment, prepareClientFixture, type ClientFixture } from "./client-session";
import { formatCount, formatMs, renderTable } from "./stats";

const FLAGS = {
  seconds: { default: 10, description: "measured seconds per scenario" },
  warmup: { default: 3, description: "unmeasured seconds before each scenario", min: 0 },
  connections: { default: 32, description: "concurrent keep-alive connections (and argon2 verifications in flight)" },
  next: { default: 1, description: "1 = measure `next start`, 0 = skip", min: 0 },
  fast: { default: 1, description: "1 = measure the fast path server (npm start), 0 = skip", min: 0 },
  build: { default: 1, description: "1 = rebuild first when sources changed, 0 = serve .next as it is", min: 0 },
  mfaConnections: { default: 20, description: "concurrent connections of the login + TOTP scenario" },
  mfaUsers: { default: 4_000, description: "users with an authenticator app the login + TOTP scenario signs in (each at most twice a 30 s step)" },
} satisfies Record<string, FlagSpec>;

export const CLIENT_USAGE = `npm run bench -- client [options]
  Client API throughput against the production build: boot probe, refresh token,
  login and login + TOTP (password, then the authenticator code), on \`next start\`
  and on the fast path server, plus the raw argon2id verify rate.
${describeFlags(FLAGS)}
    BENCH_DATABASE_URL overrides the database (created and migrated if missing).`;

const PROBE_TARGET = { requestsPerSecond: 1_500, p99Ms: 50 };
const LOGIN_SHARE_TARGET = 0.8;
/** A sign-in with a second factor costs one argon2id verify, like a login, plus a second request. */
const MFA_TARGET = { share: 0.75, p99Ms: 400 };
const SERVER_LABELS: Record<ServerKind, string> = { "next-start": "next start", "fast-path": "fast path" };

type Scenario = "boot probe" | "refresh token" | "login";
type Measured = Scenario | "login + TOTP";

interface Row {
  scenario: Measured | "argon2id verify (raw)";
  server: string;
  result: LoadResult | "missing";
}

function requests(baseUrl: string, fixture: ClientFixture): Record<Scenario, LoadRequest> {
  const client = { "x-api-key": fixture.environment.publishableKey };
  return {
    "boot probe": { url: `${baseUrl}/_svc/client`, method: "GET", headers: { ...client, cookie: fixture.cookie } },
    "refresh token": { url: `${baseUrl}/_svc/auth/token`, method: "POST", headers: { ...client, cookie: fixture.cookie } },
    login: {
      url: `${baseUrl}/_svc/auth/login`,
      method: "POST",
      headers: { ...client, "content-type": "application/json" },
      body: JSON.stringify({ email: fixture.email, password: fixture.password }),
    },
  };
}

/** One request by hand first: a scenario that fails outright is reported, not measured as fast errors. */
async function precheck(scenario: Scenario, request: LoadRequest): Promise<"ok" | "missing"> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  if (response.status === 404 && scenario === "refresh token") return "missing";
  if (!response.ok) throw new Error(`${scenario}: ${request.method} ${request.url} answered ${response.status}: ${text}`);
  if (scenario === "boot probe" && !(JSON.parse(text) as { authenticated?: boolean }).authenticated) {
    throw new Error("boot probe: the session cookie is not accepted");
  }
  return "ok";
}


export async function runClientBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  const kinds = (["next-start", "fast-path"] as const).filter((kind) => (kind === "next-start" ? flags.next : flags.fast));
  if (kinds.length === 0) throw new UsageError("nothing to measure with --next 0 --fast 0");
  // One secret for this process and the servers: createEnvironment seals the signing key with it.
  process.env.GATEHOUSE_SECRET ||= randomBytes(48).toString("base64");
  const secret = process.env.GATEHOUSE_SECRET;
  console.log(
    [
      "Gatehouse bench: Client API",
      `  measures   req/s and latency at ${flags.connections} connections, ${flags.seconds} s per scenario after ${flags.warmup} s warm-up`,
      `  targets    boot probe >= ${formatCount(PROBE_TARGET.requestsPerSecond)} req/s with p99 < ${PROBE_TARGET.p99Ms} ms; ` +
        `login >= ${LOGIN_SHARE_TARGET * 100} % of the raw argon2id verify rate; ` +
        `login + TOTP (${flags.mfaConnections} connections) >= ${MFA_TARGET.share * 100} % of it in sign-ins/s, p99 < ${MFA_TARGET.p99Ms} ms`,
      `  servers    ${kinds.map((kind) => SERVER_LABELS[kind]).join(", ")} (production build, GATEHOUSE_MODE=production)`,
      `  database   ${describeUrl(benchDatabaseUrl())}`,
      `  machine    ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(" ")} (a busy machine lowers every figure)`,
      "",
    ].join("\n"),
  );

  ensureBuild(Boolean(flags.build));
  const environment = await createBenchEnvironment();
  const mfaUsers = await seedMfaUsers(environment, flags.mfaUsers);
  const rows: Row[] = [];
  // Both servers run at once, idle but for the one under load, and each scenario is
  // measured on one right after the other: on a machine whose load drifts, the two
  // figures of a row pair were taken under the same conditions.
  const started = await Promise.allSettled(kinds.map(async (kind) => startServerProcess({ kind, port: await freePort(), env: benchServerEnv(secret) })));
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  let raw: LoadResult;
  try {
    for (const server of servers) console.log(`${SERVER_LABELS[server.kind]} up on port ${server.port}`);
    const fixture = await prepareClientFixture((servers[0] as ServerProcess).baseUrl, environment);
    for (const scenario of ["boot probe", "refresh token", "login"] as const) {
      for (const server of servers) {
        const label = SERVER_LABELS[server.kind];
        const request = requests(server.baseUrl, fixture)[scenario];
        if ((await precheck(scenario, request)) === "missing") {
          console.log(`  ${scenario.padEnd(14)} ${label.padEnd(11)} missing (404): not served by this build`);
          rows.push({ scenario, server: label, result: "missing" });
          continue;
        }
        const result = await loadTest(request, { connections: flags.connections, seconds: flags.seconds, warmupSeconds: flags.warmup });
        console.log(`  ${scenario.padEnd(14)} ${label.padEnd(11)} ${formatCount(result.requestsPerSecond).padStart(6)} req/s  p99 ${formatMs(result.p99)} ms`);
        rows.push({ scenario, server: label, result });
      }
    }
    for (const server of servers) {
      const label = SERVER_LABELS[server.kind];
      await precheckMfaSignIn(server.baseUrl, environment.publishableKey, mfaUsers);
      const result = await mfaSignInLoad(server.baseUrl, environment.publishableKey, mfaUsers, {
        connections: flags.mfaConnections,
        seconds: flags.seconds,
        warmupSeconds: flags.warmup,
      });
      console.log(`  ${"login + TOTP".padEnd(14)} ${label.padEnd(11)} ${formatCount(result.requestsPerSecond).padStart(6)} sign-ins/s  p99 ${formatMs(result.p99)} ms`);
      rows.push({ scenario: "login + TOTP", server: label, result });
    }
    // Right after the logins, with the servers idle: the hash rate of the same machine state.
    console.log("  raw argon2id verify…");
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    raw = await verifyRate(passwordHash, BENCH_PASSWORD, { concurrency: flags.connections, seconds: flags.seconds });
    rows.push({ scenario: "argon2id verify (raw)", server: "in-process", result: raw });
  } catch (error) {
    for (const server of servers) console.error(`${SERVER_LABELS[server.kind]} output (last lines):\n${server.output()}`);
    throw error;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }

  console.log(`\nClient API at ${flags.connections} connections, ${flags.seconds} s each\n`);
  console.log(resultTable(rows, raw.requestsPerSecond));
  console.log("  login + TOTP: completed sign-ins (a login and a verify each) per second; its latency is the whole sign-in's.");
  console.log(summary(rows));
}

function verdict(row: Row, rawRate: number): string {
  if (row.result === "missing") return "endpoint missing";
  const { requestsPerSecond, p99, failures } = row.result;
  if (failures > 0) return `${formatCount(failures)} FAILED requests`;
  if (row.scenario === "boot probe") {
    const ok = requestsPerSecond >= PROBE_TARGET.requestsPerSecond && p99 < PROBE_TARGET.p99Ms;
    return `${ok ? "ok" : "MISSED"} (>= ${formatCount(PROBE_TARGET.requestsPerSecond)}/s, p99 < ${PROBE_TARGET.p99Ms} ms)`;
  }
  if (row.scenario === "login") {
    const share = requestsPerSecond / rawRate;
    return `${share >= LOGIN_SHARE_TARGET ? "ok" : "MISSED"} (${Math.round(share * 100)} % of raw, >= ${LOGIN_SHARE_TARGET * 100} %)`;
  }
  if (row.scenario === "login + TOTP") {
    const share = requestsPerSecond / rawRate;
    const ok = share >= MFA_TARGET.share && p99 < MFA_TARGET.p99Ms;
    return `${ok ? "ok" : "MISSED"} (${Math.round(share * 100)} % of raw, >= ${MFA_TARGET.share * 100} %; p99 < ${MFA_TARGET.p99Ms} ms)`;
  }
  return "";
}

function resultTable(rows: Row[], rawRate: number): string {
  return renderTable(
    [
      { header: "scenario" },
      { header: "server" },
      { header: "req/s", align: "right" },
      { header: "p50 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "requests", align: "right" },
      { header: "target" },
    ],
    rows.map((row) =>
      row.result === "missing"
        ? [row.scenario, row.server, "-", "-", "-", "-", verdict(row, rawRate)]
        : [
            row.scenario,
            row.server,
            formatCount(row.result.requestsPerSecond),
            formatMs(row.result.p50),
            formatMs(row.result.p99),
            formatCount(row.result.total),
            verdict(row, rawRate),
          ],
    ),
  );
}

/** The fast path's gain over `next start`, per scenario measured on both. */
function summary(rows: Row[]): string {
  const rate = (scenario: Measured, server: string) => {
    const result = rows.find((row) => row.scenario === scenario && row.server === server)?.result;
    return result && result !== "missing" ? result.requestsPerSecond : undefined;
  };
  const lines = (["boot probe", "refresh token", "login", "login + TOTP"] as const).flatMap((scenario) => {
    const next = rate(scenario, SERVER_LABELS["next-start"]);
    const fast = rate(scenario, SERVER_LABELS["fast-path"]);
    return next && fast ? [`  ${scenario.padEnd(14)} fast path ${(fast / next).toFixed(2)}x next start`] : [];
  });
  return lines.length > 0 ? `\n${lines.join("\n")}` : "";
}
