import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationMemberships, organizationRoles, organizations } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import { getLiveUserOrThrow } from "../users/get-user";
import { DEFAULT_ROLES, findRole, readRoleSet } from "./roles";

/** A user's membership in an organization, with what its role grants in the environment's role set. */
export interface OrgMembership {
  organizationId: string;
  userId: string;
  role: string;
  /** The role's display name; null when the role set no longer has the key. */
  roleName: string | null;
  permissions: string[];
}

/** The spec's "Organization membership (as seen by the caller)". */
export interface MyOrganization {
  id: string;
  name: string;
  role: string;
  roleName: string | null;
}

/**
 * The role's name and permissions, read in the same statement as the membership:
 * the stored row of the role set, or, when the environment stored no role set,
 * the default role of that key.
 */
const roleColumns = {
  role: organizationMemberships.role,
  storedName: organizationRoles.name,
  storedPermissions: organizationRoles.permissions,
  customRoles: sql<boolean>`exists (select 1 from ${organizationRoles} where ${organizationRoles.environmentId} = ${organizationMemberships.environmentId})`,
};

interface RoleFacts {
  role: string;
  storedName: string | null;
  storedPermissions: string[] | null;
  customRoles: boolean;
}

function grantsOf(row: RoleFacts): { roleName: string | null; permissions: string[] } {
  if (row.customRoles) return { roleName: row.storedName, permissions: row.storedPermissions ?? [] };
  const role = findRole(DEFAULT_ROLES, row.role);
  return { roleName: role?.name ?? null, permissions: role ? [...role.permissions] : [] };
}

const roleJoin = and(eq(organizationRoles.environmentId, organizationMemberships.environmentId), eq(organizationRoles.key, organizationMemberships.role));

/**
 * The user's membership in the organization, or null: also when the organization
 * or the user belongs to another environment. One statement.
 */
export async function findMembership(db: Database, environmentId: string, organizationId: string, userId: string): Promise<OrgMembership | null> {
  const [row] = await db
    .select(roleColumns)
    .from(organizationMemberships)
    .leftJoin(organizationRoles, roleJoin)
    .where(
      and(
        eq(organizationMemberships.environmentId, environmentId),
        eq(organizationMemberships.organizationId, organizationId),
        eq(organizationMemberships.userId, userId),
      ),
    )
    .limit(1);
  if (!row) return null;
  return { organizationId, userId, role: row.role, ...grantsOf(row) };
}

/** The organizations the user belongs to, oldest membership first, with the user's role in each. One statement. */
export async function listMyOrganizations(db: Database, environmentId: string, userId: string): Promise<MyOrganization[]> {
  const rows = await db
    .select({ ...roleColumns, id: organizations.id, name: organizations.name })
    .from(organizationMemberships)
    .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
    .leftJoin(organizationRoles, roleJoin)
    .where(and(eq(organizationMemberships.environmentId, environmentId), eq(organizationMemberships.userId, userId)))
    .orderBy(asc(organizationMemberships.createdAt), asc(organizationMemberships.id));
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role, roleName: grantsOf(row).roleName }));
}

/**
 * Makes the user a member of the organization with a role of the environment's set,
 * in the caller's transaction, with its audit row. The organization row is locked,
 * so concurrent additions queue and the member limit holds; the user's row too, for
 * the per-user limit. 404 for an organization or user of another environment,
 * 409 already_member, 409 organization_limit_reached past either limit.
 */
export async function addMembership(
  tx: Database,
  environment: EnvironmentContext,
  input: { organizationId: string; userId: string; role: string },
  actor: Actor,
): Promise<OrgMembership> {
  const [organization] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, input.organizationId), eq(organizations.environmentId, environment.id)))
    .for("update");
  if (!organization) throw new AppError("resource_not_found", "No organization with this id.");
  const role = findRole(await readRoleSet(tx, environment.id), input.role);
  if (!role) throw invalidField("role", "is not a role of the environment's role set");
  await getLiveUserOrThrow(tx, environment.id, input.userId, { forUpdate: true });
  const { maxMembers, maxPerUser } = environment.settings.organizations;
  const [members] = await tx.select({ n: count() }).from(organizationMemberships).where(eq(organizationMemberships.organizationId, organization.id));
  if ((members?.n ?? 0) >= maxMembers) {
    throw new AppError("organization_limit_reached", `The organization has reached its limit of ${maxMembers} members.`);
  }
  const [memberships] = await tx
    .select({ n: count() })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.environmentId, environment.id), eq(organizationMemberships.userId, input.userId)));
  if ((memberships?.n ?? 0) >= maxPerUser) {
    throw new AppError("organization_limit_reached", `The user has reached the limit of ${maxPerUser} organizations.`);
  }
  const inserted = await tx
    .insert(organizationMemberships)
    .values({ environmentId: environment.id, organizationId: organization.id, userId: input.userId, role: role.key })
    .onConflictDoNothing({ target: [organizationMemberships.organizationId, organizationMemberships.userId] })
    .returning({ id: organizationMemberships.id });
  if (inserted.length === 0) throw new AppError("already_member", "The user is already a member of this organization.");
  await recordEvent(tx, {
    environmentId: environment.id,
    type: "organization.member_added",
    actor,
    subjectId: organization.id,
    data: { userId: input.userId, role: role.key },
  });
  return { organizationId: organization.id, userId: input.userId, role: role.key, roleName: role.name, permissions: [...role.permissions] };
}
