import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { applications, environments } from "@/db/schema";
import { toEnvironmentContext, type EnvironmentContext } from "../environments/context";
import { newPublishableKey } from "../environments/api-keys";
import { environmentSettingsSchema } from "../environments/settings";
import { createSigningKey } from "../tokens/signing-keys";

/** Operator sessions end after 12 hours, or after 30 minutes without a dashboard request (issue 17). */
export const OPERATOR_SESSION_LIFETIME_SECONDS = 12 * 60 * 60;
export const OPERATOR_SESSION_IDLE_SECONDS = 30 * 60;

/**
 * The settings of the dashboard's environment. Its users are the operators, so the
 * environment's own rules are the operators' rules: the session lifetime and idle
 * limit are enforced on every dashboard request by the same query that judges an
 * end-user's session (lib/sessions/resolve-session.ts), and the password policy,
 * the sign-in rate limits and the failure streak are the users' ones. Nobody signs
 * up: operators are created by an owner or the CLI.
 */
function internalSettings() {
  return environmentSettingsSchema.parse({
    branding: { applicationName: "Gatehouse dashboard" },
    signUp: { enabled: false },
    sessions: { lifetimeSeconds: OPERATOR_SESSION_LIFETIME_SECONDS, inactivitySeconds: OPERATOR_SESSION_IDLE_SECONDS },
  });
}

/** Created once and never deleted: a process keeps its id after the first lookup. */
let knownId: string | null = null;

/**
 * The internal environment, created on first need (Stack Auth's internal project,
 * Logto's admin tenant): operators are its users. It has no frontend host, no
 * allowed origin and no secret key, and its publishable key is refused by the
 * Client API's lookup (resolve-client-environment.ts), so nothing but the dashboard
 * and the CLI reaches it. Concurrent first calls create one: the partial unique
 * index on `internal` lets only one insert win, and the others read it back.
 */
export async function internalEnvironment(db: Database): Promise<EnvironmentContext> {
  const existing = await readInternalEnvironment(db);
  if (existing) return existing;
  await db.transaction(async (tx) => {
    const [app] = await tx.insert(applications).values({ name: "Gatehouse dashboard" }).returning({ id: applications.id });
    if (!app) throw new Error("application insert returned no row");
    const [created] = await tx
      .insert(environments)
      .values({
        applicationId: app.id,
        name: "Operators",
        kind: "production",
        internal: true,
        publishableKey: newPublishableKey("production"),
        frontendHosts: [],
        settings: internalSettings(),
      })
      .onConflictDoNothing()
      .returning({ id: environments.id });
    if (!created) {
      // Another process created it first: drop the application this one made.
      await tx.delete(applications).where(eq(applications.id, app.id));
      return;
    }
    // Operator sessions are sessions like any other: establishing one mints an access token.
    await createSigningKey(tx, created.id);
  });
  const environment = await readInternalEnvironment(db);
  if (!environment) throw new Error("the internal environment was not created");
  return environment;
}

async function readInternalEnvironment(db: Database): Promise<EnvironmentContext | null> {
  const byId = knownId ? await db.select().from(environments).where(eq(environments.id, knownId)).limit(1) : [];
  const [row] = byId[0]?.internal ? byId : await db.select().from(environments).where(eq(environments.internal, true)).limit(1);
  if (!row) return null;
  knownId = row.id;
  return toEnvironmentContext(row);
}
