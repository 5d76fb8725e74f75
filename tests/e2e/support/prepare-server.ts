/**
 * Runs before `npm start` in Playwright's webServer command: creates this run's
 * database (a fresh Postgres database, or PGlite in the run folder), migrates it
 * and creates the test environments through the lib, so the server's first start
 * finds them (and seeds no development environment of its own).
 */
import { and, eq } from "drizzle-orm";
import fs from "node:fs";
import * as OTPAuth from "otpauth";
import { openDatabase, type Database } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { emailAddresses, environments as environmentRows, users } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { createEnvironment } from "@/lib/environments/create-environment";
import { enableTotp } from "@/lib/mfa/enable-totp";
import { beginTotpEnrollment, matchPendingTotp } from "@/lib/mfa/totp-factors";
import { createOperator } from "@/lib/operators/create-operator";
import { internalEnvironment } from "@/lib/operators/internal-environment";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { createUser } from "@/lib/users/create-user";
import { getLiveUserOrThrow } from "@/lib/users/get-user";
import { withAdmin } from "../../helpers/test-database";
import { e2eRun, type E2eEnvironments, type OperatorLogin } from "./run-settings";

/**
 * Parallel slots of prepared operators per role, and operators per slot. A worker
 * signs in only as its own slot's (support/operators.ts), so workers never share an
 * authenticator; two per slot give each worker four sign-ins per role every 30 s on
 * authenticator codes alone (the current and the next step of each), and their
 * recovery codes twenty more before one would wait for a step.
 */
const OPERATOR_SLOTS = 4;
const OPERATORS_PER_SLOT = 2;

/** An operator with a password chosen through their one-time link, as `operator create` and the set-password page leave one. */
async function preparedOperator(db: Database, email: string, role: "owner" | "admin" | "viewer", password: string): Promise<{ userId: string }> {
  const created = await createOperator(db, { email, role }, SYSTEM_ACTOR);
  const token = new URL(created.signInLink.url).searchParams.get("token") ?? "";
  const context = { requestId: `e2e_prepare_${role}`, ip: null, userAgent: null, origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
  await setOperatorPassword(db, { token, password }, context);
  return { userId: created.operator.userId };
}

/**
 * Sets up an authenticator app for an operator through lib/mfa, as the account page
 * does (a new secret, confirmed with its first code, ten recovery codes, the notice),
 * and returns what the tests' authenticator needs: the secret and the step spent.
 */
async function enrollAuthenticator(db: Database, userId: string): Promise<NonNullable<OperatorLogin["totp"]>> {
  const environment = await internalEnvironment(db);
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error("the prepared operator vanished");
  const { secret } = await beginTotpEnrollment(db, environment, user);
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), period: 30 }).generate();
  const pending = await matchPendingTotp(db, userId, code);
  if (!pending) throw new Error("the prepared operator's first authenticator code was refused");
  const recoveryCodes = await db.transaction(async (tx) => {
    const owner = await getLiveUserOrThrow(tx, environment.id, userId, { forUpdate: true });
    return enableTotp(tx, environment, owner, pending, SYSTEM_ACTOR);
  });
  return { secret, lastStep: pending.step, recoveryCodes };
}

const run = e2eRun();
fs.mkdirSync(run.runDir, { recursive: true });
process.env.DATA_DIR = run.runDir;
process.env.GATEHOUSE_SECRET = run.secret;

if (run.adminUrl && run.databaseName) {
  const name = run.databaseName;
  await withAdmin(run.adminUrl, (sql) => sql.unsafe(`CREATE DATABASE ${name}`));
}
const handle = openDatabase({ url: run.databaseUrl ?? "", poolSize: 1 });
try {
  await migrateDatabase(handle);
  const main = await createEnvironment(handle.db, { name: "Acme Notes", frontendHost: `localhost:${run.port}` });
  const branded = await createEnvironment(handle.db, { name: "Northwind Travel" });
  // A tenant on a frontend host of its own: Chromium resolves *.localhost to loopback.
  const acme = await createEnvironment(handle.db, { name: "Acme Tenant", frontendHost: `acme.localhost:${run.port}` });
  // Two-step verification required for everyone (global-setup switches it on); reached with ?pk=.
  const enforced = await createEnvironment(handle.db, { name: "Fortress Bank" });
  // Starts without the requirement: the enrollment-gate test turns it on under a signed-in user.
  const gated = await createEnvironment(handle.db, { name: "Harbour Lock" });
  // Reached with ?pk=; requires consent to the terms throughout (global-setup), for the deferred OAuth sign-up.
  const consenting = await createEnvironment(handle.db, { name: "Meadow Clinic" });

  const environment = await findEnvironment(handle.db, main.environmentId);
  if (!environment) throw new Error("the main e2e environment vanished");
  const unverifiedUser = { email: "unverified@e2e.test", password: "unverified-password-42" };
  const user = await createUser(handle.db, environment, { ...unverifiedUser, firstName: "Una" }, SYSTEM_ACTOR);
  // The Server API trusts the addresses it is given; undo that to stand in for an address that was never proven.
  await handle.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
  await handle.db
    .update(emailAddresses)
    .set({ verifiedAt: null })
    .where(and(eq(emailAddresses.userId, user.id), eq(emailAddresses.email, unverifiedUser.email)));

  // The dashboard's operator, made as the CLI makes one (PUBLIC_URL is the run's base URL): the server's start then seeds no owner of its own.
  const { operator, signInLink } = await createOperator(handle.db, { email: "operator@e2e.test", role: "owner" }, SYSTEM_ACTOR);
  // Operators are prepared, and sign in, dozens of times from one address: the internal environment's rate limits go off
  // for the suite, as the customer environments' do (global-setup). It has no Server API: set on its row.
  const internal = await internalEnvironment(handle.db);
  await handle.db
    .update(environmentRows)
    .set({ settings: { ...internal.settings, rateLimits: { ...internal.settings.rateLimits, enabled: false } } })
    .where(eq(environmentRows.id, internal.id));
  // Operators of each role with a password already set, for the screens' tests (signInAsOperator). Owners
  // and admins hold an authenticator app, as production asks of them before they change anything; a
  // viewer needs none. Several per role, a slot of them for each parallel worker (OPERATOR_SLOTS).
  const operatorLogins = { owner: [], admin: [], viewer: [] } as E2eEnvironments["operatorLogins"];
  for (const role of ["owner", "admin", "viewer"] as const) {
    const password = `${role}-operator-password-83`;
    const slots = role === "viewer" ? 1 : OPERATOR_SLOTS;
    const perSlot = role === "viewer" ? 1 : OPERATORS_PER_SLOT;
    for (let slot = 0; slot < slots; slot++) {
      const logins: OperatorLogin[] = [];
      for (let index = 0; index < perSlot; index++) {
        const email = slot === 0 && index === 0 ? `${role}@operators.e2e.test` : `${role}-${slot}-${index}@operators.e2e.test`;
        const { userId } = await preparedOperator(handle.db, email, role, password);
        logins.push({ email, password, totp: role === "viewer" ? null : await enrollAuthenticator(handle.db, userId) });
      }
      operatorLogins[role].push(logins);
    }
  }
  const first = (role: "owner" | "admin" | "viewer") => {
    const login = operatorLogins[role][0]?.[0];
    if (!login) throw new Error(`no prepared ${role}`);
    return { email: login.email, password: login.password };
  };
  const operators: E2eEnvironments["operators"] = { owner: first("owner"), admin: first("admin"), viewer: first("viewer") };
  // Admins without a second factor: one sees the banner, one sets up an authenticator on the account page.
  const unprotectedAdmin = { email: "unprotected-admin@operators.e2e.test", password: "unprotected-admin-password-83" };
  const enrollingAdmin = { email: "enrolling-admin@operators.e2e.test", password: "enrolling-admin-password-83" };
  for (const admin of [unprotectedAdmin, enrollingAdmin]) await preparedOperator(handle.db, admin.email, "admin", admin.password);

  const environments: E2eEnvironments = {
    main,
    branded,
    acme,
    enforced,
    gated,
    consenting,
    unverifiedUser,
    operator: { email: operator.email, signInUrl: signInLink.url },
    operators,
    operatorLogins,
    unprotectedAdmin,
    enrollingAdmin,
  };
  fs.writeFileSync(run.environmentsFile, JSON.stringify(environments, null, 2));
  console.log(`e2e: prepared ${run.databaseName ? `Postgres database ${run.databaseName}` : `PGlite in ${run.runDir}`}`);
} finally {
  await handle.close();
}
