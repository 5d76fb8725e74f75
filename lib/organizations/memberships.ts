import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { organizationMemberships, organizationRoles, organizations } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import { getLiveUserOrThrow } from "../users/get-user";
import { DEFAULT_ROLES, findRole, lockRoleSet, readRoleSet } from "./roles";

/** A user's membership in an organization, with what its role grants in the environment's role set. */
export interface OrgMembership {
  organizationId: string;
  userId: string;
  role: string;
  /** The role's display name; null when the role set no longer has the key. */
  roleName: string | null;
  permissions: string[];
}

/**
 * The caller acting in an organization through the Client API: their membership,
 * and whether their session proved a factor recently (lib/sessions/reverification.ts),
 * which making, unmaking or inviting an owner needs (role-authority.ts).
 */
export interface ActingMember extends OrgMembership {
  recentSignIn: boolean;
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

/**
 * Who acts in an organization, as the pipeline's Caller (lib/operation/caller.ts)
 * says it: a member through the Client API (the pipeline resolved `member` from the
 * operation's organization scope), or the back-end, a secret key or an operator,
 * trusted with every role. Any Caller is one.
 */
export type OrganizationCaller = { kind: "user"; member?: ActingMember } | { kind: "secretKey" | "operator" };

/**
 * The acting member as the pipeline read it, before any lock; null for the back-end.
 * A quick refusal only: a change re-reads it under the lock (memberUnderLock).
 */
export function memberAsRead(caller: OrganizationCaller): ActingMember | null {
  if (caller.kind !== "user") return null;
  if (!caller.member) throw new Error("a user acting in an organization needs the membership its operation's organization scope resolves");
  return caller.member;
}

/**
 * The acting member as of the organization row lock; null for the back-end. The
 * pipeline read the membership before the lock; a demotion or removal committed
 * since must not let the old role act: 404 once removed, 403 once `permission` is gone.
 */
export async function memberUnderLock(
  tx: Database,
  environmentId: string,
  organizationId: string,
  caller: OrganizationCaller,
  permission: string | null,
): Promise<ActingMember | null> {
  const by = memberAsRead(caller);
  if (!by) return null;
  const current = await findMembership(tx, environmentId, organizationId, by.userId);
  if (!current) throw new AppError("resource_not_found", "No organization with this id.");
  if (permission && !current.permissions.includes(permission)) {
    throw new AppError("forbidden", `Your role in this organization lacks the ${permission} permission.`, { properties: { permission } });
  }
  return { ...current, recentSignIn: by.recentSignIn };
}

/** Prepared: the boot probe, the hottest path, runs it on every page load. */
function myOrganizationsQuery(db: Database) {
  return preparedStatement(db, "my_organizations", (d) =>
    d
      .select({ ...roleColumns, id: organizations.id, name: organizations.name })
      .from(organizationMemberships)
      .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
      .leftJoin(organizationRoles, roleJoin)
      .where(
        and(
          eq(organizationMemberships.environmentId, sql.placeholder("environmentId")),
          eq(organizationMemberships.userId, sql.placeholder("userId")),
        ),
      )
      .orderBy(asc(organizationMemberships.createdAt), asc(organizationMemberships.id))
      .prepare("my_organizations"),
  );
}

/** The organizations the user belongs to, oldest membership first, with the user's role in each. One statement. */
export async function listMyOrganizations(db: Database, environmentId: string, userId: string): Promise<MyOrganization[]> {
  const rows = await myOrganizationsQuery(db).execute({ environmentId, userId });
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role, roleName: grantsOf(row).roleName }));
}

function alreadyMember(): AppError {
  return new AppError("already_member", "The user is already a member of this organization.");
}

/**
 * Makes the user a member of the organization with a role of the environment's set,
 * in the caller's transaction, with its audit row. The organization row is locked,
 * so concurrent additions queue and the member limit holds; the user's row too, for
 * the per-user limit. 404 for an unknown organization (or one of another
 * environment) or user, 403 environment_mismatch for a user of another environment,
 * 400 for a role outside the set, 409 already_member, 409 organization_limit_reached
 * past either limit.
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
  await lockRoleSet(tx, environment.id, "shared");
  const role = findRole(await readRoleSet(tx, environment.id), input.role);
  if (!role) throw invalidField("role", "is not a role of the environment's role set");
  // Answered before the user's row is locked: deleteUser holds that row while it waits for
  // this organization's (releaseMemberships), so re-adding one of its members gives up here instead of deadlocking.
  if (await findMembership(tx, environment.id, organization.id, input.userId)) throw alreadyMember();
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
  // Additions queue on the organization's lock, so the check above decided; the unique index stays the backstop.
  if (inserted.length === 0) throw alreadyMember();
  await recordEvent(tx, {
    environmentId: environment.id,
    type: "organization.member_added",
    actor,
    subjectId: organization.id,
    data: { userId: input.userId, role: role.key },
  });
  return { organizationId: organization.id, userId: input.userId, role: role.key, roleName: role.name, permissions: [...role.permissions] };
}
