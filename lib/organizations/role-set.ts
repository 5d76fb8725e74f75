import { and, eq, notInArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationInvitations, organizationMemberships, organizationRoles } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError, invalidField } from "../errors";
import { lockRoleSet, ORG_PERMISSIONS, OWNER_ROLE, readRoleSet, type OrgRole } from "./roles";

/**
 * Replaces the environment's role set whole. The set must keep an `owner` role with
 * every org:* permission (an organization is always manageable by its owners), keys
 * are unique, and a role still held by a member or offered by a pending invitation
 * cannot be dropped (409 role_in_use).
 */
export async function replaceRoleSet(db: Database, environmentId: string, roles: OrgRole[], actor: Actor): Promise<OrgRole[]> {
  const keys = roles.map((role) => role.key);
  if (new Set(keys).size !== keys.length) throw invalidField("items", "must not repeat a role key");
  const owner = roles.find((role) => role.key === OWNER_ROLE);
  if (!owner) throw invalidField("items", `must include the "${OWNER_ROLE}" role`);
  const missing = ORG_PERMISSIONS.filter((permission) => !owner.permissions.includes(permission));
  if (missing.length > 0) throw invalidField("items", `the owner role must keep ${missing.join(", ")}`);
  return db.transaction(async (tx) => {
    await lockRoleSet(tx, environmentId, "exclusive");
    const [member] = await tx
      .select({ role: organizationMemberships.role })
      .from(organizationMemberships)
      .where(and(eq(organizationMemberships.environmentId, environmentId), notInArray(organizationMemberships.role, keys)))
      .limit(1);
    const [invitation] = await tx
      .select({ role: organizationInvitations.role })
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.environmentId, environmentId),
          eq(organizationInvitations.status, "pending"),
          notInArray(organizationInvitations.role, keys),
        ),
      )
      .limit(1);
    const inUse = member?.role ?? invitation?.role;
    if (inUse) throw new AppError("role_in_use", `The role "${inUse}" is held by a member or offered by a pending invitation; reassign it first.`);
    await tx.delete(organizationRoles).where(eq(organizationRoles.environmentId, environmentId));
    await tx.insert(organizationRoles).values(
      roles.map((role, position) => ({ environmentId, key: role.key, name: role.name, permissions: [...new Set(role.permissions)], position })),
    );
    await recordEvent(tx, { environmentId, type: "organization.roles_replaced", actor, data: { keys } });
    return readRoleSet(tx, environmentId);
  });
}
