/**
 * Runs before `npm start` in Playwright's webServer command: creates this run's
 * database (a fresh Postgres database, or PGlite in the run folder), migrates it
 * and creates the test environments through the lib, so the server's first start
 * finds them (and seeds no development environment of its own).
 */
import { and, eq } from "drizzle-orm";
import fs from "node:fs";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { emailAddresses, users } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { createEnvironment } from "@/lib/environments/create-environment";
import { createOperator } from "@/lib/operators/create-operator";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { createUser } from "@/lib/users/create-user";
import { withAdmin } from "../../helpers/test-database";
import { e2eRun, type E2eEnvironments } from "./run-settings";

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
  // One operator of each role with a password already set, for the screens' tests (signInAsOperator).
  const operators = {} as E2eEnvironments["operators"];
  for (const role of ["owner", "admin", "viewer"] as const) {
    const email = `${role}@operators.e2e.test`;
    const password = `${role}-operator-password-83`;
    const created = await createOperator(handle.db, { email, role }, SYSTEM_ACTOR);
    const token = new URL(created.signInLink.url).searchParams.get("token") ?? "";
    const context = { requestId: `e2e_prepare_${role}`, ip: null, userAgent: null, origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
    await setOperatorPassword(handle.db, { token, password }, context);
    operators[role] = { email, password };
  }

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
  };
  fs.writeFileSync(run.environmentsFile, JSON.stringify(environments, null, 2));
  console.log(`e2e: prepared ${run.databaseName ? `Postgres database ${run.databaseName}` : `PGlite in ${run.runDir}`}`);
} finally {
  await handle.close();
}
