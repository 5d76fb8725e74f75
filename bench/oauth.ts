import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import type { CreatedEnvironment } from "@/lib/environments/create-environment";
import { callbackUrl } from "@/lib/oauth/provider-client";
import { freePort, startServerProcess, type ServerProcess } from "@/lib/server/server-process";
import { describeFlags, parseFlags, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl } from "./bench-database";
import { createBenchEnvironment, send } from "./client-session";
import { makeCertificate, startBenchProvider, type BenchProvider } from "./oauth-provider";
import { signInLoad, signInOnce, type CallbackSample, type OAuthTarget, type SignInRun } from "./oauth-sign-ins";
import { benchServerEnv, ensureBuild } from "./production-server";
import { formatCount, formatMs, renderTable, summarize } from "./stats";

const FLAGS = {
  seconds: { default: 10, description: "measured seconds per scenario" },
  warmup: { default: 3, description: "unmeasured seconds before each scenario", min: 0 },
  connections: { default: 4, description: "browsers at once: they bring a round of sign-ins to the callback (unmeasured), then deliver the callbacks (measured)" },
  build: { default: 1, description: "1 = rebuild first when sources changed, 0 = serve .next as it is", min: 0 },
} satisfies Record<string, FlagSpec>;

export const OAUTH_USAGE = `npm run bench -- oauth [options]
  OAuth web sign-in on the fast path server against a loopback OpenID provider
  (https, in a process of its own): new users, then returning users. Each callback
  is timed at the client, less the code exchange it reports in Server-Timing.
${describeFlags(FLAGS)}
    BENCH_DATABASE_URL overrides the database (created and migrated if missing).`;

/** Issue 9: callback to session, the code exchange against the provider left out. */
const TARGET_P99_MS = 50;
const PROVIDER_ID = "bench-idp";

type Scenario = "new users" | "returning users";

interface Row {
  scenario: Scenario;
  run: SignInRun;
}

/** Through the Server API, as an operator would: no rate limits (thousands of sign-ins from one address), the provider. */
async function registerProvider(baseUrl: string, environment: CreatedEnvironment, provider: BenchProvider): Promise<void> {
  const server = { authorization: `Bearer ${environment.secretKey}` };
  await send(baseUrl, "PATCH", "/api/server/v1/environment", server, { rateLimits: { enabled: false } });
  await send(baseUrl, "POST", "/api/server/v1/oauth-providers", server, {
    id: PROVIDER_ID,
    type: "oidc",
    name: "Bench IdP",
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
  });
}

/** A login name the provider has never seen: a new user at Gatehouse. */
const newLogin = () => `new-${randomUUID()}`;

/** Round the users who signed in before, oldest first. */
function returningLogins(pool: readonly string[]): () => string {
  let next = 0;
  return () => pool[next++ % pool.length] as string;
}

export async function runOAuthBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  // One secret for this process and the server: createEnvironment seals the signing key with it.
  process.env.GATEHOUSE_SECRET ||= randomBytes(48).toString("base64");
  // Production refuses providers on non-public addresses; the bench's runs on loopback.
  const serverEnv: NodeJS.ProcessEnv = { ...benchServerEnv(process.env.GATEHOUSE_SECRET), OAUTH_PRIVATE_HOSTS: "127.0.0.1" };
  console.log(
    [
      "Gatehouse bench: OAuth sign-in",
      `  measures   the callback (GET /_svc/auth/oauth2/{provider}/callback) of web sign-ins, ${flags.connections} at once (in rounds after the provider's logins), ` +
        `${flags.seconds} s per scenario after ${flags.warmup} s warm-up: its latency at the client less the oauth-exchange its Server-Timing reports`,
      `  target     callback to session, code exchange excluded: p99 < ${TARGET_P99_MS} ms`,
      "  server     fast path (production build, GATEHOUSE_MODE=production); provider: oidc-provider over https on loopback, its own process",
      `  database   ${describeUrl(benchDatabaseUrl())}`,
      `  machine    ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(" ")} (a busy machine lowers every figure)`,
      "",
    ].join("\n"),
  );

  ensureBuild(Boolean(flags.build));
  const environment = await createBenchEnvironment("oauth");
  const certificate = makeCertificate();
  let server: ServerProcess | null = null;
  let provider: BenchProvider | null = null;
  const rows: Row[] = [];
  try {
    server = await startServerProcess({ kind: "fast-path", port: await freePort(), env: { ...serverEnv, NODE_EXTRA_CA_CERTS: certificate.certPath } });
    console.log(`fast path up on port ${server.port}`);
    const redirectUri = callbackUrl({ origin: new URL(serverEnv.PUBLIC_URL ?? "").origin, publishableKey: null }, PROVIDER_ID);
    provider = await startBenchProvider({ certificate, redirectUri });
    console.log(`provider up at ${provider.issuer}`);
    await registerProvider(server.baseUrl, environment, provider);
    const target: OAuthTarget = { baseUrl: server.baseUrl, publishableKey: environment.publishableKey, providerId: PROVIDER_ID, provider };

    // One sign-in by hand first: a flow that fails outright is reported, not measured as fast errors.
    const first = newLogin();
    await signInOnce(target, first);
    const load = (nextLogin: () => string, seconds: number) => signInLoad(target, nextLogin, { connections: flags.connections, seconds });
    const report = (scenario: Scenario, run: SignInRun) => {
      const figure = run.samples.length > 0 ? `p99 ${formatMs(summarize(run.samples.map(ownShare)).p99)} ms` : "no sign-in completed";
      console.log(`  ${scenario.padEnd(15)} ${formatCount(run.samples.length / run.seconds).padStart(5)} sign-ins/s  callback − exchange ${figure}`);
      rows.push({ scenario, run });
    };

    // Everyone the new-user scenario makes, warm-up included, comes back in the second one.
    const users = [first];
    if (flags.warmup > 0) users.push(...(await load(newLogin, flags.warmup)).signedIn);
    const fresh = await load(newLogin, flags.seconds);
    users.push(...fresh.signedIn);
    report("new users", fresh);
    const nextReturning = returningLogins(users);
    if (flags.warmup > 0) await load(nextReturning, flags.warmup);
    report("returning users", await load(nextReturning, flags.seconds));
  } catch (error) {
    if (server) console.error(`fast path output (last lines):\n${server.output()}`);
    if (provider) console.error(`provider output (last lines):\n${provider.output()}`);
    throw error;
  } finally {
    await Promise.all([server?.stop(), provider?.stop()]);
    certificate.remove();
  }

  console.log(`\nOAuth web sign-in, ${flags.connections} browsers at once, ${flags.seconds} s each\n`);
  console.log(resultTable(rows));
  console.log(
    [
      "  callback − exchange: each callback's latency at the client less the oauth-exchange duration its Server-Timing header reports",
      "  (the code redemption, id_token check and UserInfo at the provider); app − exchange: the server's own account of the same,",
      "  without the network, the request's authentication and rate-limit checks, or the client.",
    ].join("\n"),
  );
  for (const { scenario, run } of rows) if (run.firstFailure) console.log(`  ${scenario}: first failure: ${run.firstFailure}`);
}

/** The acceptance figure of one callback: what is left of its latency once the provider's part is taken out. */
function ownShare(sample: CallbackSample): number {
  return sample.totalMs - sample.exchangeMs;
}

const MEASURES: { name: string; of: (sample: CallbackSample) => number; target?: true }[] = [
  { name: "callback − exchange", of: ownShare, target: true },
  { name: "callback (client)", of: (sample) => sample.totalMs },
  { name: "oauth-exchange", of: (sample) => sample.exchangeMs },
  { name: "app − exchange (server)", of: (sample) => sample.appMs - sample.exchangeMs },
];

function verdict(run: SignInRun, p99: number): string {
  if (run.failures > 0) return `${formatCount(run.failures)} FAILED sign-ins`;
  return `${p99 < TARGET_P99_MS ? "ok" : "MISSED"} (p99 < ${TARGET_P99_MS} ms)`;
}

function resultTable(rows: Row[]): string {
  return renderTable(
    [
      { header: "scenario" },
      { header: "sign-ins", align: "right" },
      { header: "per s", align: "right" },
      { header: "measure" },
      { header: "p50 ms", align: "right" },
      { header: "p95 ms", align: "right" },
      { header: "p99 ms", align: "right" },
      { header: "target" },
    ],
    rows.flatMap(({ scenario, run }) => {
      const lead = [scenario, formatCount(run.samples.length), formatCount(run.samples.length / run.seconds)];
      if (run.samples.length === 0) return [[...lead, "no sign-in completed", "-", "-", "-", verdict(run, Infinity)]];
      return MEASURES.map((measure, index) => {
        const latency = summarize(run.samples.map(measure.of));
        return [
          ...(index === 0 ? lead : ["", "", ""]),
          measure.name,
          formatMs(latency.p50),
          formatMs(latency.p95),
          formatMs(latency.p99),
          measure.target ? verdict(run, latency.p99) : "",
        ];
      });
    }),
  );
}
