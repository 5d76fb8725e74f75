/**
 * `npm run cli -- <command>`: operator commands that work before any dashboard exists.
 *
 *   env create --name NAME [--host HOST] [--production] [--json]
 *   env list [--json]
 *   keys create-secret ENV_ID [--label LABEL] [--json]
 *   keys list ENV_ID [--json]
 *   keys revoke KEY_ID
 *   keys rotate-signing ENV_ID [--json]
 *   operator create --email EMAIL --role owner|admin|viewer [--json]
 *   operator link --email EMAIL [--json]
 *   operator list [--json]
 *   operator remove --email EMAIL
 *   operator reset-factors --email EMAIL
 *   users import FILE --env ENV_ID
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeDb, databaseHandle } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { embeddedDatabaseHolder } from "../lib/cli/embedded-lock";
import { createSecretKey, listSecretKeys, revokeSecretKey } from "../lib/environments/api-keys";
import { findEnvironment } from "../lib/environments/context";
import { createEnvironment } from "../lib/environments/create-environment";
import { listEnvironments } from "../lib/environments/list-environments";
import { SYSTEM_ACTOR } from "../lib/audit/record-event";
import { AppError } from "../lib/errors";
import { rotateSigningKey } from "../lib/tokens/rotate-signing-key";
import { createOperator } from "../lib/operators/create-operator";
import { findOperatorByEmail, listOperators, type OperatorSummary } from "../lib/operators/operators";
import { removeOperator } from "../lib/operators/remove-operator";
import { resetOperatorFactors } from "../lib/operators/reset-operator-factors";
import { issueOperatorSignInLink, type SignInLink } from "../lib/operators/sign-in-link";
import { importUsersFile, progressBar } from "../lib/cli/import-users-file";

const USAGE = `Usage: npm run cli -- <command>

  env create --name NAME [--host HOST] [--production] [--json]
                                 create an application and environment; prints its keys once
  env list [--json]              list environments
  keys create-secret ENV_ID [--label LABEL] [--json]
                                 create another secret key (shown once)
  keys list ENV_ID [--json]      list an environment's secret keys (prefixes only)
  keys revoke KEY_ID             revoke a secret key at once
  keys rotate-signing ENV_ID [--json]
                                 new signing key for tokens; the old one stays published until its tokens expire
  operator create --email EMAIL --role owner|admin|viewer [--json]
                                 create a dashboard operator; prints a one-time sign-in link (24 h)
  operator link --email EMAIL [--json]
                                 a fresh one-time sign-in link for an operator (a forgotten password)
  operator list [--json]         list the dashboard's operators
  operator remove --email EMAIL  remove an operator; their dashboard sessions end at once
  operator reset-factors --email EMAIL
                                 remove an operator's second factors (a lost authenticator); their sessions end
  users import FILE --env ENV_ID import users from an NDJSON file (the body of POST /users/import); refused lines
                                 are printed as NDJSON on stdout, a progress bar on stderr`;

class UsageError extends Error {}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    host: { type: "string" },
    label: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    env: { type: "string" },
    production: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

function output(value: unknown, human: () => string): void {
  console.log(flags.json ? JSON.stringify(value) : human());
}

function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

async function run(db: ReturnType<typeof databaseHandle>["db"], command: string): Promise<void> {
  switch (command) {
    case "env create": {
      const created = await createEnvironment(db, {
        name: requireArg(flags.name, "--name NAME"),
        frontendHost: flags.host,
        kind: flags.production ? "production" : "development",
      });
      return output(created, () =>
        [
          `Created environment ${created.environmentId} (application ${created.applicationId})`,
          `  frontend host    ${created.frontendHost}`,
          `  publishable key  ${created.publishableKey}`,
          `  secret key       ${created.secretKey}`,
          "The secret key is shown only now; store it safely.",
        ].join("\n"),
      );
    }
    case "env list": {
      const rows = await listEnvironments(db);
      return output(rows, () =>
        rows.length === 0
          ? "No environments yet: npm run cli -- env create --name NAME"
          : rows.map((r) => `${r.environmentId}  ${r.kind.padEnd(11)}  ${r.applicationName} / ${r.name}  ${r.frontendHosts.join(",")}  ${r.publishableKey}`).join("\n"),
      );
    }
    case "keys create-secret": {
      const environmentId = requireArg(positionals[2], "ENV_ID");
      const environment = await findEnvironment(db, environmentId).catch(() => null);
      if (!environment) throw new AppError("resource_not_found", `No environment ${environmentId}.`);
      const key = await createSecretKey(db, environment, flags.label ?? null);
      return output({ id: key.id, environmentId, secretKey: key.secretKey }, () => `Secret key ${key.id}: ${key.secretKey}\nShown only now; store it safely.`);
    }
    case "keys list": {
      const keys = await listSecretKeys(db, requireArg(positionals[2], "ENV_ID"));
      return output(keys, () =>
        keys.map((k) => `${k.id}  ${k.displayPrefix}  ${k.label ?? ""}  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active"}`).join("\n") || "No keys.",
      );
    }
    case "keys revoke": {
      const revoked = await revokeSecretKey(db, requireArg(positionals[2], "KEY_ID"));
      return output(revoked, () => `Revoked ${revoked.id}; requests with it now get 401.`);
    }
    case "keys rotate-signing": {
      const environmentId = requireArg(positionals[2], "ENV_ID");
      const environment = await findEnvironment(db, environmentId).catch(() => null);
      if (!environment) throw new AppError("resource_not_found", `No environment ${environmentId}.`);
      const { kid } = await rotateSigningKey(db, environment.id, SYSTEM_ACTOR);
      return output({ kid, environmentId }, () => `Signing key ${kid} is now current; the previous key stays in the JWKS until its tokens expire.`);
    }
    case "users import": {
      const file = requireArg(positionals[2], "FILE");
      const environmentId = requireArg(flags.env, "--env ENV_ID");
      const environment = await findEnvironment(db, environmentId).catch(() => null);
      if (!environment) throw new AppError("resource_not_found", `No environment ${environmentId}.`);
      const tty = process.stderr.isTTY;
      const done = await importUsersFile(db, environment, file, {
        onProgress: (progress) => process.stderr.write(tty ? `\r${progressBar(progress)}` : `${progressBar(progress)}\n`),
        refusals: (line) => console.log(line),
      });
      process.stderr.write(`${tty ? "\n" : ""}Imported ${done.created} users; refused ${done.refused} lines (listed on stdout).\n`);
      return;
    }
    case "operator create": {
      const { operator, signInLink } = await createOperator(db, { email: requireArg(flags.email, "--email EMAIL"), role: requireArg(flags.role, "--role owner|admin|viewer") }, SYSTEM_ACTOR);
      return printSignInLink(operator, signInLink, `Created ${operator.role} operator ${operator.email}.`);
    }
    case "operator link": {
      const operator = await existingOperator(db, requireArg(flags.email, "--email EMAIL"));
      const signInLink = await issueOperatorSignInLink(db, operator, SYSTEM_ACTOR);
      return printSignInLink(operator, signInLink, `New sign-in link for ${operator.email}; earlier links no longer work.`);
    }
    case "operator list": {
      const rows = await listOperators(db);
      return output(rows, () =>
        rows.length === 0
          ? "No operators yet: npm run cli -- operator create --email EMAIL --role owner"
          : rows.map((r) => `${r.id}  ${r.role.padEnd(6)}  ${r.email}${r.passwordSet ? "" : "  (sign-in link not used yet)"}`).join("\n"),
      );
    }
    case "operator reset-factors": {
      const operator = await existingOperator(db, requireArg(flags.email, "--email EMAIL"));
      await resetOperatorFactors(db, operator, SYSTEM_ACTOR);
      return output({ id: operator.id, factorsReset: true }, () => `Removed every second factor of ${operator.email}; their dashboard sessions have ended. They sign in with their password and set up a new one.`);
    }
    case "operator remove": {
      const operator = await existingOperator(db, requireArg(flags.email, "--email EMAIL"));
      await removeOperator(db, operator, SYSTEM_ACTOR);
      return output({ id: operator.id, removed: true }, () => `Removed operator ${operator.email}; their dashboard sessions have ended.`);
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : "no command given");
  }
}

async function existingOperator(db: ReturnType<typeof databaseHandle>["db"], email: string): Promise<OperatorSummary> {
  const operator = await findOperatorByEmail(db, email);
  if (!operator) throw new AppError("resource_not_found", `No operator with the address ${email}.`);
  return operator;
}

function printSignInLink(operator: OperatorSummary, link: SignInLink, headline: string): void {
  output({ operatorId: operator.id, email: operator.email, role: operator.role, signInUrl: link.url, expiresAt: link.expiresAt.toISOString() }, () =>
    [
      headline,
      `  one-time sign-in link  ${link.url}`,
      `  valid until            ${link.expiresAt.toISOString()} (24 h), once`,
      "Open it to choose a password; then sign in at the dashboard.",
    ].join("\n"),
  );
}

async function main(): Promise<number> {
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const command = positionals.slice(0, 2).join(" ");
  const holder = embeddedDatabaseHolder();
  if (holder) {
    console.error(`cli: the running server (pid ${holder}) owns the embedded database; stop it first, or run both with DATABASE_URL.`);
    return 1;
  }
  const handle = databaseHandle();
  try {
    // Migrations only: re-spelling the stored frontend hosts (upgradeDatabase) is the server's
    // boot, under the PUBLIC_URL they are served by; a CLI run in a shell with another (or
    // none, so http://localhost:3000) would drop ports that are real there.
    await migrateDatabase(handle);
    await run(handle.db, command);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`cli: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof z.ZodError) {
      console.error(`cli: ${z.prettifyError(error)}`);
      return 1;
    }
    if (error instanceof AppError) {
      console.error(`cli: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDb();
  }
}

main().then((code) => process.exit(code));
