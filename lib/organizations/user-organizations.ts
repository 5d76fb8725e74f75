import { sql, type SQL } from "drizzle-orm";
import type { MyOrganization } from "./memberships";
import { DEFAULT_ROLES, findRole } from "./roles";

interface StoredMembership {
  id: string;
  name: string;
  role: string;
  storedName: string | null;
  customRoles: boolean;
}

function toMemberships(value: unknown): MyOrganization[] {
  const rows = (typeof value === "string" ? JSON.parse(value) : value) as StoredMembership[];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    roleName: row.customRoles ? row.storedName : (findRole(DEFAULT_ROLES, row.role)?.name ?? null),
  }));
}

/**
 * The user's organizations, oldest membership first, as one JSON column of a query
 * over users: a correlated subquery on the memberships' (user, createdAt) index, so
 * a page of users carries them in the statement that finds it. `userId` is that
 * query's users id column.
 */
export function organizationSummaryColumn(userId: SQL): SQL<MyOrganization[]> {
  return sql<MyOrganization[]>`coalesce((
    select json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role, 'storedName', r.name,
                                      'customRoles', exists (select 1 from organization_roles c where c.environment_id = m.environment_id))
                    order by m.created_at, m.id)
      from organization_memberships m
      join organizations o on o.id = m.organization_id
      left join organization_roles r on r.environment_id = m.environment_id and r.key = m.role
     where m.user_id = ${userId}), '[]'::json)`.mapWith(toMemberships);
}
