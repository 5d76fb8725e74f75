/**
 * `npm run bench -- <search|create|client|oauth|organizations|dashboard|import> [options]`: performance checks against a real
 * Postgres (BENCH_DATABASE_URL), kept out of the test suite because they take
 * minutes and need a quiet machine to mean anything.
 */
import { UsageError } from "./args";
import { CLIENT_USAGE, runClientBench } from "./client";
import { CREATE_USAGE, runCreateBench } from "./create";
import { DASHBOARD_USAGE, runDashboardBench } from "./dashboard";
import { IMPORT_USAGE, runImportBench } from "./import";
import { OAUTH_USAGE, runOAuthBench } from "./oauth";
import { ORGANIZATIONS_USAGE, runOrganizationsBench } from "./organizations";
import { runSearchBench, SEARCH_USAGE } from "./search";

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; usage: string }> = {
  search: { run: runSearchBench, usage: SEARCH_USAGE },
  create: { run: runCreateBench, usage: CREATE_USAGE },
  client: { run: runClientBench, usage: CLIENT_USAGE },
  oauth: { run: runOAuthBench, usage: OAUTH_USAGE },
  organizations: { run: runOrganizationsBench, usage: ORGANIZATIONS_USAGE },
  dashboard: { run: runDashboardBench, usage: DASHBOARD_USAGE },
  import: { run: runImportBench, usage: IMPORT_USAGE },
};

function usage(): string {
  return ["Usage:", ...Object.values(COMMANDS).map((command) => `  ${command.usage.replace(/\n/g, "\n  ")}`)].join("\n\n");
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(usage());
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown bench "${name}"`);
  await command.run(rest);
}

main(process.argv.slice(2)).then(
  // Exit explicitly: a lingering pool or timer must not keep a finished bench alive.
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}\n\n${usage()}`);
      process.exit(2);
    }
    console.error("bench failed:", error);
    process.exit(1);
  },
);
