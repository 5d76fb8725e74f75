import { and, asc, eq, inArray, not, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { applications, environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { createEnvironment, type CreatedEnvironment } from "../environments/create-environment";
import { AppError } from "../errors";
import { internalEnvironment } from "../operators/internal-environment";
import type { addEnvironmentBody, applicationPageSchema, createApplicationBody } from "./schemas";

/**
 * Applications and their environments, across environments: the dashboard's
 * Applications page (lib/applications/endpoints.ts, dashboard-only operations).
 * The dashboard's internal environment, and the application holding it, are never
 * listed, renamed or deleted: every query here names only customer rows, and a
 * row that is not one is 404, as if it did not exist. Events of an application,
 * and an environment's deletion (its own events go with it), are recorded in the
 * internal environment, whose log outlives them.
 */

/** An application that holds no internal environment (the dashboard's own application holds one). */
const customerApplication = sql`not exists (select 1 from environments i where i.application_id = ${applications.id} and i.internal)`;

/** Applications oldest first, each with its environments oldest first; keyset pages of applications. */
export async function listApplications(db: Database, page: { limit: number; cursor?: string }): Promise<z.output<typeof applicationPageSchema>> {
  const rows = await db
    .select({ id: applications.id, name: applications.name, createdAt: applications.createdAt })
    .from(applications)
    .where(
      and(
        customerApplication,
        page.cursor
          ? sql`(${applications.createdAt}, ${applications.id}) > (select c.created_at, c.id from applications c where c.id = ${page.cursor})`
          : undefined,
      ),
    )
    .orderBy(asc(applications.createdAt), asc(applications.id))
    .limit(page.limit + 1);
  if (rows.length === 0 && page.cursor) await getApplicationOrThrow(db, page.cursor).catch(() => {
    throw new AppError("invalid_request", "cursor: is not a nextCursor of this list.");
  });
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  const envs = items.length
    ? await db
        .select()
        .from(environments)
        .where(and(inArray(environments.applicationId, items.map((row) => row.id)), eq(environments.internal, false)))
        .orderBy(asc(environments.createdAt), asc(environments.id))
    : [];
  return {
    items: items.map((app) => ({
      id: app.id,
      name: app.name,
      createdAt: app.createdAt.toISOString(),
      environments: envs
        .filter((env) => env.applicationId === app.id)
        .map((env) => ({ id: env.id, name: env.name, kind: env.kind, publishableKey: env.publishableKey, frontendHosts: env.frontendHosts, createdAt: env.createdAt.toISOString() })),
    })),
    nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null,
    hasMore,
  };
}

/** A customer application, locked for the transaction when `lock`; 404 for any other id. */
async function getApplicationOrThrow(db: Database, applicationId: string, lock = false) {
  const query = db.select({ id: applications.id, name: applications.name }).from(applications).where(and(eq(applications.id, applicationId), customerApplication));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new AppError("resource_not_found", "No application with this id.");
  return row;
}

/** A customer environment, locked for the transaction; 404 for any other id (the internal one included). */
async function lockEnvironmentOrThrow(db: Database, environmentId: string) {
  const [row] = await db
    .select({ id: environments.id, name: environments.name, applicationId: environments.applicationId })
    .from(environments)
    .where(and(eq(environments.id, environmentId), not(environments.internal)))
    .for("update");
  if (!row) throw new AppError("resource_not_found", "No environment with this id.");
  return row;
}

/** A deletion names what it deletes (type-to-confirm): anything else deletes nothing. */
function assertConfirmed(typed: string, name: string): void {
  if (typed.trim() === name.trim()) return;
  throw new AppError("invalid_request", "confirmation: type the exact name of what you are deleting.", {
    fieldErrors: [{ field: "confirmation", code: "mismatch", message: "does not match the name" }],
  });
}

/** A new application with its first environment (keys, signing key), like the CLI's `env create`, in one transaction. */
export async function createApplication(db: Database, input: z.output<typeof createApplicationBody>, actor: Actor): Promise<CreatedEnvironment> {
  const internal = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const [app] = await tx.insert(applications).values({ name: input.name }).returning({ id: applications.id });
    if (!app) throw new Error("application insert returned no row");
    const created = await createEnvironment(tx, { name: input.environmentName, kind: input.kind, frontendHost: input.frontendHost, applicationId: app.id }, actor);
    await recordEvent(tx, { environmentId: internal.id, type: "application.created", actor, data: { applicationId: app.id, name: input.name } });
    return created;
  });
}

/** Adds an environment to an application; the application is locked, so a concurrent deletion cannot orphan it. */
export async function addEnvironment(db: Database, applicationId: string, input: z.output<typeof addEnvironmentBody>, actor: Actor): Promise<CreatedEnvironment> {
  return db.transaction(async (tx) => {
    await getApplicationOrThrow(tx, applicationId, true);
    return createEnvironment(tx, { name: input.name, kind: input.kind, frontendHost: input.frontendHost, applicationId }, actor);
  });
}

export async function renameApplication(db: Database, applicationId: string, name: string, actor: Actor) {
  const internal = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const previous = await getApplicationOrThrow(tx, applicationId, true);
    await tx.update(applications).set({ name, updatedAt: new Date() }).where(eq(applications.id, applicationId));
    await recordEvent(tx, { environmentId: internal.id, type: "application.renamed", actor, data: { applicationId, name, previousName: previous.name } });
    return { id: applicationId, name };
  });
}

export async function renameEnvironment(db: Database, environmentId: string, name: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const previous = await lockEnvironmentOrThrow(tx, environmentId);
    await tx.update(environments).set({ name, updatedAt: new Date() }).where(eq(environments.id, environmentId));
    await recordEvent(tx, { environmentId, type: "environment.renamed", actor, data: { name, previousName: previous.name } });
    return { id: environmentId, name };
  });
}

/**
 * Deletes an environment and everything in it (users, sessions, keys, events: every
 * table's environment_id cascades, db/schema.ts) in one transaction, its event in
 * the internal environment. `confirmation` must be the environment's name.
 */
export async function deleteEnvironment(db: Database, environmentId: string, confirmation: string, actor: Actor) {
  const internal = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const target = await lockEnvironmentOrThrow(tx, environmentId);
    assertConfirmed(confirmation, target.name);
    await tx.delete(environments).where(eq(environments.id, environmentId));
    await recordEvent(tx, {
      environmentId: internal.id,
      type: "environment.deleted",
      actor,
      data: { applicationId: target.applicationId, environmentId, name: target.name },
    });
    return { id: environmentId, deletedEnvironments: 1 };
  });
}

/** Deletes an application and all its environments (cascade) in one transaction. `confirmation` must be its name. */
export async function deleteApplication(db: Database, applicationId: string, confirmation: string, actor: Actor) {
  const internal = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const target = await getApplicationOrThrow(tx, applicationId, true);
    assertConfirmed(confirmation, target.name);
    const gone = await tx.delete(environments).where(eq(environments.applicationId, applicationId)).returning({ id: environments.id, name: environments.name });
    await tx.delete(applications).where(eq(applications.id, applicationId));
    await recordEvent(tx, { environmentId: internal.id, type: "application.deleted", actor, data: { applicationId, name: target.name, environments: gone.length } });
    return { id: applicationId, deletedEnvironments: gone.length };
  });
}
