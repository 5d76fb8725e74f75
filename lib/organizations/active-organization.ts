import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { organizationMemberships, organizationRoles, sessions } from "@/db/schema";
import { DEFAULT_ROLES, findRole } from "./roles";

/** The organization claims of an access token (CONTRACT §3); absent while no organization is active. */
export interface OrganizationClaims {
  org_id: string;
  org_role: string;
  org_permissions: string[];
}

/**
 * The session's active organization joined to the user's membership in it and to
 * the environment's role set, in one prepared statement: no row when no organization
 * is active or the user is no longer a member (removed, organization deleted), so a
 * removed member's next token carries no org claims. The membership must be of the
 * session's own environment.
 */
function activeMembershipQuery(db: Database) {
  return preparedStatement(db, "active_organization_claims", (d) =>
    d
      .select({
        organizationId: organizationMemberships.organizationId,
        role: organizationMemberships.role,
        storedPermissions: organizationRoles.permissions,
        customRoles: sql<boolean>`exists (select 1 from ${organizationRoles} where ${organizationRoles.environmentId} = ${sessions.environmentId})`,
      })
      .from(sessions)
      .innerJoin(
        organizationMemberships,
        and(
          eq(organizationMemberships.organizationId, sessions.activeOrganizationId),
          eq(organizationMemberships.userId, sessions.userId),
          eq(organizationMemberships.environmentId, sessions.environmentId),
        ),
      )
      .leftJoin(
        organizationRoles,
        and(eq(organizationRoles.environmentId, organizationMemberships.environmentId), eq(organizationRoles.key, organizationMemberships.role)),
      )
      .where(and(eq(sessions.id, sql.placeholder("sessionId")), eq(sessions.environmentId, sql.placeholder("environmentId"))))
      .limit(1)
      .prepare("active_organization_claims"),
  );
}

/**
 * `org_id`, `org_role` and `org_permissions` for a token of this session, re-read at
 * every mint; null when no organization is active or the membership is gone. A role
 * the environment's stored set no longer has grants nothing.
 */
export async function activeOrganizationClaims(db: Database, environmentId: string, sessionId: string): Promise<OrganizationClaims | null> {
  const [row] = await activeMembershipQuery(db).execute({ sessionId, environmentId });
  if (!row) return null;
  const permissions = row.customRoles ? (row.storedPermissions ?? []) : (findRole(DEFAULT_ROLES, row.role)?.permissions ?? []);
  return { org_id: row.organizationId, org_role: row.role, org_permissions: [...permissions] };
}
