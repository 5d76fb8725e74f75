import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { adminDatabaseUrl, withDatabaseName } from "../../helpers/test-database";

/**
 * One e2e run's settings, fixed by the first process that asks (the Playwright
 * runner, loading its config) and handed to the server command, the global setup
 * and the workers through environment variables, which they all inherit.
 */
export interface E2eRun {
  port: number;
  baseUrl: string;
  /** DATA_DIR of the server: PGlite files (when no Postgres), and the environments file. */
  runDir: string;
  /** Postgres server the run's database is created on; null means PGlite. */
  adminUrl: string | null;
  databaseName: string | null;
  databaseUrl: string | null;
  secret: string;
  environmentsFile: string;
}

export function e2eRun(): E2eRun {
  const env = process.env;
  env.GH_E2E_RUN ??= `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  env.GH_E2E_SECRET ??= randomBytes(48).toString("base64");
  const id = env.GH_E2E_RUN;
  const port = Number(env.E2E_PORT ?? 3311);
  const runDir = path.join(os.tmpdir(), `gh-e2e-${id}`);
  const adminUrl = adminDatabaseUrl() ?? null;
  const databaseName = adminUrl ? `gh_e2e_${id}` : null;
  return {
    port,
    baseUrl: `http://localhost:${port}`,
    runDir,
    adminUrl,
    databaseName,
    databaseUrl: adminUrl && databaseName ? withDatabaseName(adminUrl, databaseName) : null,
    secret: env.GH_E2E_SECRET,
    environmentsFile: path.join(runDir, "e2e-environments.json"),
  };
}

/** The environments prepare-server.ts creates; the tests read them back from the run folder. */
export interface E2eEnvironments {
  /** Served on localhost:PORT (tenancy by Host), rate limits off, no consent. */
  main: { environmentId: string; publishableKey: string; secretKey: string };
  /** Reached with ?pk= (tenancy by key), branded, consent switched on by the sign-up test. */
  branded: { environmentId: string; publishableKey: string; secretKey: string };
  /** Served on its own frontend host acme.localhost:PORT. */
  acme: { environmentId: string; publishableKey: string; secretKey: string };
  /** Reached with ?pk=; `mfa.required` is on: every user enrolls a second factor at sign-in. */
  enforced: { environmentId: string; publishableKey: string; secretKey: string };
  /** Reached with ?pk=; `mfa.required` starts off, for the test that turns it on under a live session. */
  gated: { environmentId: string; publishableKey: string; secretKey: string };
  /** Reached with ?pk=; `legal.requireConsent` is always on: an OAuth sign-up waits on the continuation page. */
  consenting: { environmentId: string; publishableKey: string; secretKey: string };
  /** A user of `main` whose primary address is not verified, for the email-verification gate. */
  unverifiedUser: { email: string; password: string };
  /** A dashboard operator (owner) as `npm run cli -- operator create` makes one: an address and its one-time sign-in link. */
  operator: { email: string; signInUrl: string };
  /** One operator of each role whose password is set (owner and admin with an authenticator app); sign in with support/operators.ts. */
  operators: Record<"owner" | "admin" | "viewer", { email: string; password: string }>;
  /**
   * Every prepared operator support/operators.ts signs in as, by role, then by parallel
   * slot (Playwright's parallelIndex modulo their number): a worker only ever uses its
   * own slot's, so two workers never spend the same authenticator step. The first
   * login of slot 0 is `operators[role]`.
   */
  operatorLogins: Record<"owner" | "admin" | "viewer", OperatorLogin[][]>;
  /** Admins with a password and no second factor: one to see the banner, one to set up an authenticator on the account page. */
  unprotectedAdmin: { email: string; password: string };
  enrollingAdmin: { email: string; password: string };
}

/** A prepared operator's sign-in: the password, and for owners and admins their authenticator app as prepare-server enrolled it. */
export interface OperatorLogin {
  email: string;
  password: string;
  totp: {
    secret: string;
    /** The time step the enrollment's confirmation spent: the next code must be of a later one. */
    lastStep: number;
    recoveryCodes: string[];
  } | null;
}
