import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationRoles } from "@/db/schema";

/**
 * The permissions Gatehouse itself checks. An environment's role set may also grant
 * its application's own keys (any `a-z0-9:_-` string); those travel in access tokens
 * (`org_permissions`) for the application to check.
 */
export const ORG_PERMISSIONS = ["org:members:manage", "org:invitations:manage", "org:settings:manage"] as const;

/** The permission to invite and to manage invitations, for roles within the holder's reach (role-authority.ts). */
export const MANAGE_INVITATIONS = "org:invitations:manage";

/** A permission key: one of ORG_PERMISSIONS or an application's own key. */
export type OrgPermission = string;

export interface OrgRole {
  key: string;
  name: string;
  permissions: string[];
}

/** The key of the role that holds an organization: there is always at least one. */
export const OWNER_ROLE = "owner";

/** The role a member gets when none is named. */
export const DEFAULT_MEMBER_ROLE = "member";

/** The role set of an environment that stored none. */
export const DEFAULT_ROLES: OrgRole[] = [
  { key: OWNER_ROLE, name: "Owner", permissions: [...ORG_PERMISSIONS] },
  { key: "admin", name: "Admin", permissions: [...ORG_PERMISSIONS] },
  { key: DEFAULT_MEMBER_ROLE, name: "Member", permissions: [] },
];

/** The environment's role set in display order: its stored rows, or DEFAULT_ROLES when it stored none. */
export async function readRoleSet(db: Database, environmentId: string): Promise<OrgRole[]> {
  const rows = await db
    .select({ key: organizationRoles.key, name: organizationRoles.name, permissions: organizationRoles.permissions })
    .from(organizationRoles)
    .where(eq(organizationRoles.environmentId, environmentId))
    .orderBy(asc(organizationRoles.position), asc(organizationRoles.key));
  return rows.length > 0 ? rows : DEFAULT_ROLES;
}

/** A role of the set by key, or undefined. */
export function findRole(roles: readonly OrgRole[], key: string): OrgRole | undefined {
  return roles.find((role) => role.key === key);
}

/** A role of the set by key; a key the set no longer has grants nothing. */
export function roleOrBare(roles: readonly OrgRole[], key: string): OrgRole {
  return findRole(roles, key) ?? { key, name: key, permissions: [] };
}

/**
 * Serializes a change of the environment's role set (exclusive) against writers that
 * give a member or an invitation a role of it (shared), for the rest of the
 * transaction: without it a role could be assigned while a concurrent replacement
 * drops it, and two replacements of a never-stored set would lock no row at all.
 */
export async function lockRoleSet(tx: Database, environmentId: string, mode: "shared" | "exclusive"): Promise<void> {
  const key = sql`hashtextextended(${`organization_roles:${environmentId}`}, 0)`;
  await tx.execute(mode === "shared" ? sql`select pg_advisory_xact_lock_shared(${key})` : sql`select pg_advisory_xact_lock(${key})`);
}
