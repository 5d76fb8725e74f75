import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { jwtTemplates } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { CreateJwtTemplateInput, JwtTemplate, UpdateJwtTemplateInput } from "./jwt-template-schemas";

type JwtTemplateRow = typeof jwtTemplates.$inferSelect;

export function toJwtTemplate(row: JwtTemplateRow): JwtTemplate {
  return {
    id: row.id,
    name: row.name,
    claims: row.claims,
    lifetimeSeconds: row.lifetimeSeconds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) =>
  new AppError("identifier_exists", `This environment already has a JWT template named "${name}".`, {
    fieldErrors: [{ field: "name", code: "identifier_exists", message: "is already used by another template" }],
  });

/** The template with this id in the caller's environment; another environment's is 403 (CONTRACT §4). */
export async function getJwtTemplateOrThrow(db: Database, environmentId: string, templateId: string): Promise<JwtTemplateRow> {
  const [row] = await db.select().from(jwtTemplates).where(eq(jwtTemplates.id, templateId)).limit(1);
  if (!row) throw new AppError("resource_not_found", "No JWT template with this id.");
  if (row.environmentId !== environmentId) {
    throw new AppError("environment_mismatch", "The JWT template belongs to a different environment.");
  }
  return row;
}

export async function getJwtTemplate(db: Database, environmentId: string, templateId: string): Promise<JwtTemplate> {
  return toJwtTemplate(await getJwtTemplateOrThrow(db, environmentId, templateId));
}

export async function listJwtTemplates(db: Database, environmentId: string): Promise<{ data: JwtTemplate[] }> {
  const rows = await db.select().from(jwtTemplates).where(eq(jwtTemplates.environmentId, environmentId)).orderBy(asc(jwtTemplates.name));
  return { data: rows.map(toJwtTemplate) };
}

export async function createJwtTemplate(
  db: Database,
  environment: EnvironmentContext,
  input: CreateJwtTemplateInput,
  actor: Actor,
): Promise<JwtTemplate> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(jwtTemplates)
        .values({
          environmentId: environment.id,
          name: input.name,
          claims: input.claims,
          lifetimeSeconds: input.lifetimeSeconds ?? environment.settings.sessions.tokenLifetimeSeconds,
        })
        .returning();
      if (!row) throw new Error("jwt template insert returned no row");
      await recordEvent(tx, { environmentId: environment.id, type: "jwt_template.created", actor, subjectId: row.id, data: { name: row.name } });
      return toJwtTemplate(row);
    });
  } catch (error) {
    // The unique index decides, so two concurrent creates of one name cannot both win.
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateJwtTemplate(
  db: Database,
  environmentId: string,
  templateId: string,
  patch: UpdateJwtTemplateInput,
  actor: Actor,
): Promise<JwtTemplate> {
  try {
    return await db.transaction(async (tx) => {
      await getJwtTemplateOrThrow(tx, environmentId, templateId);
      const [row] = await tx
        .update(jwtTemplates)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(jwtTemplates.id, templateId))
        .returning();
      if (!row) throw new AppError("resource_not_found", "No JWT template with this id.");
      await recordEvent(tx, {
        environmentId,
        type: "jwt_template.updated",
        actor,
        subjectId: row.id,
        data: { fields: Object.keys(patch) },
      });
      return toJwtTemplate(row);
    });
  } catch (error) {
    if (isUniqueViolation(error) && patch.name !== undefined) throw nameTaken(patch.name);
    throw error;
  }
}

/** Deletes the template; tokens already minted from it stay valid until they expire. Answers 204, hence undefined. */
export async function deleteJwtTemplate(db: Database, environmentId: string, templateId: string, actor: Actor): Promise<undefined> {
  await db.transaction(async (tx) => {
    const row = await getJwtTemplateOrThrow(tx, environmentId, templateId);
    await tx.delete(jwtTemplates).where(eq(jwtTemplates.id, templateId));
    await recordEvent(tx, { environmentId, type: "jwt_template.deleted", actor, subjectId: row.id, data: { name: row.name } });
  });
  return undefined;
}

/** The template a client mints from, by name, within the caller's environment only. */
export async function findJwtTemplateByName(db: Database, environmentId: string, name: string): Promise<JwtTemplateRow | null> {
  const [row] = await db
    .select()
    .from(jwtTemplates)
    .where(and(eq(jwtTemplates.environmentId, environmentId), eq(jwtTemplates.name, name)))
    .limit(1);
  return row ?? null;
}
