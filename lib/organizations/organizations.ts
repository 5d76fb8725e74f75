import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { organizationMemberships, organizations } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import { addMembership, memberUnderLock, type OrganizationCaller, type OrgMembership } from "./memberships";
import { OWNER_ROLE } from "./roles";

type OrganizationRow = typeof organizations.$inferSelect;

const SETTINGS_PERMISSION = "org:settings:manage";

export function toServerOrganization(row: OrganizationRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logoUrl: row.logoUrl,
    createdBy: row.createdBy,
    publicMetadata: row.publicMetadata,
    privateMetadata: row.privateMetadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toClientOrganization(row: OrganizationRow, membership: OrgMembership) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logoUrl: row.logoUrl,
    publicMetadata: row.publicMetadata,
    createdAt: row.createdAt.toISOString(),
    role: membership.role,
    roleName: membership.roleName,
    permissions: membership.permissions,
  };
}

/** Letters Unicode does not decompose into a base letter and a mark. */
const TRANSLITERATION: Record<string, string> = { æ: "ae", ø: "o", œ: "oe", ß: "ss", ł: "l", đ: "d", þ: "th", ð: "d" };

/** A URL-friendly slug from a name: ASCII letters and digits joined by single hyphens, "org" when none are left. */
export function slugFromName(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[æøœßłđþð]/g, (letter) => TRANSLITERATION[letter] ?? letter)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return base || "org";
}

export interface NewOrganization {
  name: string;
  slug?: string;
  logoUrl?: string | null;
  publicMetadata?: JsonObject;
  privateMetadata?: JsonObject;
}

/**
 * Creates an organization and makes `ownerId` (when given) its owner, in one
 * transaction with the audit rows. A given slug that is taken is 409
 * identifier_exists; a derived one gets a random suffix until it is free.
 */
export async function createOrganization(
  db: Database,
  environment: EnvironmentContext,
  input: NewOrganization,
  ownerId: string | null,
  actor: Actor,
): Promise<{ row: OrganizationRow; membership: OrgMembership | null }> {
  return db.transaction(async (tx) => {
    const base = input.slug ?? slugFromName(input.name);
    let row: OrganizationRow | undefined;
    for (let attempt = 0; !row && attempt < 5; attempt++) {
      const candidate = attempt === 0 ? base : `${base}-${randomBytes(3).toString("hex")}`;
      [row] = await tx
        .insert(organizations)
        .values({
          environmentId: environment.id,
          name: input.name,
          slug: candidate,
          logoUrl: input.logoUrl ?? null,
          createdBy: ownerId,
          publicMetadata: input.publicMetadata ?? {},
          privateMetadata: input.privateMetadata ?? {},
        })
        .onConflictDoNothing({ target: [organizations.environmentId, organizations.slug] })
        .returning();
      if (!row && input.slug) throw new AppError("identifier_exists", "slug: is already taken in this environment.");
    }
    if (!row) throw new Error("no free slug after 5 attempts");
    await recordEvent(tx, { environmentId: environment.id, type: "organization.created", actor, subjectId: row.id, data: { slug: row.slug } });
    const membership = ownerId ? await addMembership(tx, environment, { organizationId: row.id, userId: ownerId, role: OWNER_ROLE }, actor) : null;
    return { row, membership };
  });
}

export async function getOrganizationOrThrow(db: Database, environmentId: string, organizationId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.environmentId, environmentId)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new AppError("resource_not_found", "No organization with this id.");
  return row;
}

/** One page of the environment's organizations, newest first, by keyset on (createdAt, id). */
export async function listOrganizations(db: Database, environmentId: string, page: { limit: number; cursor?: string }) {
  const rows = await db
    .select()
    .from(organizations)
    .where(
      and(
        eq(organizations.environmentId, environmentId),
        page.cursor
          ? sql`(${organizations.createdAt}, ${organizations.id}) < (select c.created_at, c.id from organizations c where c.id = ${page.cursor} and c.environment_id = ${environmentId})`
          : undefined,
      ),
    )
    .orderBy(desc(organizations.createdAt), desc(organizations.id))
    .limit(page.limit + 1);
  if (rows.length === 0 && page.cursor) await getOrganizationOrThrow(db, environmentId, page.cursor).catch(() => {
    throw new AppError("invalid_request", "cursor: is not a nextCursor from this environment.");
  });
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toServerOrganization);
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
}

/**
 * Changes the given fields in one transaction with the audit row, for the Server API
 * and for members with org:settings:manage alike; a taken slug is 409
 * identifier_exists. Returns the row, for each API to show in its own shape.
 */
export async function updateOrganization(
  db: Database,
  environmentId: string,
  organizationId: string,
  patch: Partial<NewOrganization>,
  by: OrganizationCaller,
  actor: Actor,
): Promise<OrganizationRow> {
  return db.transaction(async (tx) => {
    await getOrganizationOrThrow(tx, environmentId, organizationId, { forUpdate: true });
    await memberUnderLock(tx, environmentId, organizationId, by, SETTINGS_PERMISSION);
    const fields = Object.keys(patch).filter((key) => patch[key as keyof NewOrganization] !== undefined);
    const [row] = await tx
      .update(organizations)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(organizations.id, organizationId))
      .returning()
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError("identifier_exists", "slug: is already taken in this environment.");
        throw error;
      });
    if (!row) throw new Error("organization update returned no row");
    await recordEvent(tx, { environmentId, type: "organization.updated", actor, subjectId: organizationId, data: { fields } });
    return row;
  });
}

/** Whether a member may delete the organization: deleting removes its owners with it, and only an owner removes an owner. */
export function mayDeleteOrganization(member: Pick<OrgMembership, "role" | "permissions">): boolean {
  return member.role === OWNER_ROLE && member.permissions.includes(SETTINGS_PERMISSION);
}

/**
 * Deletes the organization with its memberships and invitations (cascade), audited
 * with its member count; returns the deleted row. Sessions that had it active keep
 * the id, but their next token carries no org claims (active-organization.ts joins
 * the membership, which is gone). A member (a user caller) needs org:settings:manage
 * and must be an owner: deleting removes the owners with it, and only an owner may
 * remove an owner; the back-end may delete any.
 */
export async function deleteOrganization(
  db: Database,
  environmentId: string,
  organizationId: string,
  by: OrganizationCaller,
  actor: Actor,
): Promise<OrganizationRow> {
  return db.transaction(async (tx) => {
    const row = await getOrganizationOrThrow(tx, environmentId, organizationId, { forUpdate: true });
    const caller = await memberUnderLock(tx, environmentId, organizationId, by, SETTINGS_PERMISSION);
    if (caller && !mayDeleteOrganization(caller)) {
      throw new AppError("forbidden", "Deleting an organization removes its owners with it: only an owner can delete it.");
    }
    await removeOrganization(tx, row, actor);
    return row;
  });
}

/**
 * Deletes a locked organization row with its memberships and invitations, audited:
 * what deleteOrganization does once the caller may, and what the user-deletion
 * cascade does when no member is left to inherit it (release-memberships.ts).
 */
export async function removeOrganization(tx: Database, row: OrganizationRow, actor: Actor): Promise<void> {
  const [counted] = await tx.select({ n: sql<number>`count(*)::int` }).from(organizationMemberships).where(eq(organizationMemberships.organizationId, row.id));
  await tx.delete(organizations).where(eq(organizations.id, row.id));
  await recordEvent(tx, { environmentId: row.environmentId, type: "organization.deleted", actor, subjectId: row.id, data: { slug: row.slug, members: counted?.n ?? 0 } });
}
