/**
 * `npm start`: checks the configuration, builds when the sources are newer than the
 * build, applies migrations, seeds a development environment on a first start outside
 * production and prints its keys, then hands over to the production server,
 * scripts/server.ts (Next.js for pages plus the API fast path), or to `next dev` with --dev.
 */
import { spawn } from "node:child_process";
import { databaseHandle, closeDb } from "../db/client";
import { embeddedDatabaseHolder, claimEmbeddedDatabase, releaseEmbeddedDatabase } from "../lib/cli/embedded-lock";
import { productionStartProblem } from "../lib/config/production-checks";
import { databaseUrl } from "../db/config";
import { upgradeDatabase } from "../lib/config/upgrade-database";
import { isProduction, port, publicUrl } from "../lib/config/runtime";
import { mailboxEnabled } from "../lib/email/email-settings";
import { seedDevelopmentEnvironment } from "../lib/environments/dev-seed";
import { seedDevelopmentOperator } from "../lib/operators/dev-operator";
import { buildState, runNextBuild } from "../lib/server/build";

const dev = process.argv.includes("--dev");

function log(line: string): void {
  console.log(`gatehouse: ${line}`);
}

function fail(reason: string): never {
  console.error(`gatehouse: cannot start: ${reason}`);
  process.exit(1);
}

/** Next.js's anonymous telemetry stays off unless the operator opts in: an auth server should not phone home. */
function childEnv(): NodeJS.ProcessEnv {
  return {
    NEXT_TELEMETRY_DISABLED: "1",
    ...process.env,
    GATEHOUSE_MODE: isProduction() ? "production" : "development",
  };
}

function buildIfNeeded(): void {
  const state = buildState();
  if (state === "fresh") return;
  log(state === "stale" ? "sources changed since the last build; rebuilding…" : "building the app (first start only, about a minute)…");
  const started = Date.now();
  if (!runNextBuild(childEnv())) fail("`next build` failed (output above).");
  log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function prepareDatabase() {
  const holder = embeddedDatabaseHolder();
  if (holder) fail(`another Gatehouse server (pid ${holder}) is using the embedded database in this folder.`);
  const handle = databaseHandle();
  log(handle.kind === "pglite" ? "database: embedded PGlite in ./.data (set DATABASE_URL for Postgres)" : "database: Postgres from DATABASE_URL");
  await upgradeDatabase(handle);
  const seed = await seedDevelopmentEnvironment(handle.db);
  const operator = await seedDevelopmentOperator(handle.db);
  await closeDb(); // PGlite has one owner: hand it to the server process.
  return { ...seed, operator };
}

function printBanner(seed: Awaited<ReturnType<typeof prepareDatabase>>): void {
  const base = publicUrl();
  const lines = [
    "",
    `  Gatehouse is starting on ${base}`,
    "",
    `  Server API      ${base}/api/server/v1   (Authorization: Bearer <secret key>)`,
    `  Client API      ${base}/_svc`,
    `  API reference   ${base}/api/reference`,
    `  Hosted pages    ${base}/sign-up   (sign-in, account, …${mailboxEnabled() ? `; emails at ${base}/dev/mailbox, from this machine` : ""})`,
    `  Dashboard       ${base}/dashboard`,
  ];
  if (seed.operator?.signInLink) {
    lines.push(
      "",
      `  ${seed.operator.created ? "Created the dashboard owner" : "Dashboard owner"} ${seed.operator.email}: choose a password (one-time link, 24 h)`,
      `    ${seed.operator.signInLink.url}`,
    );
  } else if (seed.operator) {
    lines.push("", `  Dashboard login ${seed.operator.email} (forgot the password? npm run cli -- operator link --email ${seed.operator.email})`);
  } else if (isProduction()) {
    lines.push("", "  Dashboard operators: npm run cli -- operator create --email EMAIL --role owner   (prints a one-time sign-in link)");
  }
  if (seed.environment) {
    lines.push(
      "",
      `  ${seed.created ? "Created the development environment" : "Development environment"} (${seed.environment.environmentId})`,
      `  Publishable key ${seed.environment.publishableKey}`,
      `  Secret key      ${seed.environment.secretKey}`,
      "",
      "  Try it:",
      `    curl -X POST ${base}/api/server/v1/users \\`,
      `      -H "Authorization: Bearer ${seed.environment.secretKey}" -H "content-type: application/json" \\`,
      `      -d '{"email":"ada@example.com","password":"correct horse battery staple"}'`,
    );
  } else if (isProduction()) {
    lines.push("", "  Production: no development environment is seeded. Create one with", "    npm run cli -- env create --name NAME --host HOST --production");
  } else if (!seed.created) {
    lines.push("", "  Environments exist; create keys with `npm run cli -- keys create-secret <environmentId>`.");
  }
  console.log(`${lines.join("\n")}\n`);
}

async function main(): Promise<void> {
  const problem = productionStartProblem();
  if (problem) fail(problem);
  if (!dev) buildIfNeeded();
  const seed = await prepareDatabase();
  printBanner(seed);

  // The production server runs the API route handlers from their TypeScript sources,
  // so it is node with tsx's loader: one process, whose pid is the server's own.
  const [command, args] = dev
    ? ["node_modules/.bin/next", ["dev", "-p", String(port())]]
    : [process.execPath, ["--import", "tsx", "scripts/server.ts"]];
  const server = spawn(command, args, { stdio: "inherit", env: { ...childEnv(), PORT: String(port()) } });
  claimEmbeddedDatabase(server.pid ?? process.pid);
  const stop = (signal: NodeJS.Signals) => server.kill(signal);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.on("exit", (code, signal) => {
    releaseEmbeddedDatabase();
    process.exit(code ?? (signal ? 0 : 1));
  });
  if (!databaseUrl()) log(`embedded database owned by the server (pid ${server.pid})`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
