import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationMemberships, organizations, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { revokeInvitationsBeyondAuthority } from "./invitation-revocation";
import { getOrganizationOrThrow, removeOrganization } from "./organizations";
import { findRole, ORG_PERMISSIONS, OWNER_ROLE, readRoleSet, type OrgRole } from "./roles";

interface Candidate {
  id: string;
  userId: string;
  role: string;
  /** A banned user cannot sign in to use the organization: an active one is preferred as owner. */
  active: boolean;
}

/** How many of Gatehouse's own org:* permissions a role grants: admin (all three) outranks member (none). */
function orgPowerOf(roles: readonly OrgRole[], key: string): number {
  const granted = findRole(roles, key)?.permissions ?? [];
  return ORG_PERMISSIONS.filter((permission) => granted.includes(permission)).length;
}

/**
 * The other members of the organization, oldest membership first, whose users are
 * not deleted; `owners` keeps only those already owning it.
 */
async function remainingMembers(tx: Database, organizationId: string, userId: string, options: { owners?: boolean } = {}): Promise<Candidate[]> {
  return tx
    .select({
      id: organizationMemberships.id,
      userId: organizationMemberships.userId,
      role: organizationMemberships.role,
      active: sql<boolean>`${users.status} = 'active'`,
    })
    .from(organizationMemberships)
    .innerJoin(users, eq(users.id, organizationMemberships.userId))
    .where(
      and(
        eq(organizationMemberships.organizationId, organizationId),
        ne(organizationMemberships.userId, userId),
        ne(users.status, "deleted"),
        options.owners ? eq(organizationMemberships.role, OWNER_ROLE) : undefined,
      ),
    )
    .orderBy(asc(organizationMemberships.createdAt), asc(organizationMemberships.id));
}

/**
 * Keeps an organization owned when its last active owner goes: the remaining member
 * whose role grants the most org:* permissions becomes owner (active users before
 * banned ones; ties: the longest-standing, as `candidates` come oldest first),
 * audited; with no one left the organization itself is deleted (removeOrganization).
 */
async function handOver(tx: Database, environmentId: string, organizationId: string, formerOwnerId: string, roles: readonly OrgRole[], actor: Actor) {
  const remaining = await remainingMembers(tx, organizationId, formerOwnerId);
  // Banned members inherit only when no active one is left: banned, not gone.
  const active = remaining.filter((member) => member.active);
  if (active.length === 0 && remaining.some((member) => member.role === OWNER_ROLE)) return; // a banned owner still holds it
  const candidates = active.length > 0 ? active : remaining;
  const heir = candidates.reduce<Candidate | undefined>((best, next) => (!best || orgPowerOf(roles, next.role) > orgPowerOf(roles, best.role) ? next : best), undefined);
  if (!heir) {
    await removeOrganization(tx, await getOrganizationOrThrow(tx, environmentId, organizationId, { forUpdate: true }), actor);
    return;
  }
  await tx.update(organizationMemberships).set({ role: OWNER_ROLE, updatedAt: new Date() }).where(eq(organizationMemberships.id, heir.id));
  await recordEvent(tx, {
    environmentId,
    type: "organization.owner_promoted",
    actor,
    subjectId: organizationId,
    data: { userId: heir.userId, role: OWNER_ROLE, previousRole: heir.role, formerOwnerId },
  });
}

/**
 * Takes a user who is being deleted out of every organization, in the caller's
 * transaction: where they are the last owner, another member is promoted (or the
 * organization, left empty, is deleted), so no organization is owned by a deleted
 * user; then each membership is removed, audited, and the invitations the user sent
 * there are revoked, as for any member who goes: a deleted user can offer no role.
 *
 * Lock order: the caller holds the user's row, so no membership can be added
 * meanwhile (addMembership locks it too); the organizations are then locked in id
 * order, so two deletions sharing organizations, or a role change in one of them,
 * queue rather than deadlock.
 */
export async function releaseMemberships(tx: Database, environmentId: string, userId: string, actor: Actor): Promise<void> {
  const joined = tx
    .select({ organizationId: organizationMemberships.organizationId })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.environmentId, environmentId), eq(organizationMemberships.userId, userId)));
  const locked = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(inArray(organizations.id, joined))
    .orderBy(asc(organizations.id))
    .for("update");
  if (locked.length === 0) return;
  const roles = await readRoleSet(tx, environmentId);
  for (const { id: organizationId } of locked) {
    // Read again under the lock: a concurrent role change may have committed in between.
    const [membership] = await tx
      .select({ id: organizationMemberships.id, role: organizationMemberships.role })
      .from(organizationMemberships)
      .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, userId)));
    if (!membership) continue;
    // Another owner who is banned cannot run the organization: an active member is promoted beside them.
    const activeOwners = (await remainingMembers(tx, organizationId, userId, { owners: true })).filter((owner) => owner.active);
    if (membership.role === OWNER_ROLE && activeOwners.length === 0) {
      await handOver(tx, environmentId, organizationId, userId, roles, actor);
    }
    // A deleted organization took the membership with it (cascade); else it goes now.
    const removed = await tx.delete(organizationMemberships).where(eq(organizationMemberships.id, membership.id)).returning({ id: organizationMemberships.id });
    if (removed.length > 0) {
      await recordEvent(tx, { environmentId, type: "organization.member_removed", actor, subjectId: organizationId, data: { userId, role: membership.role } });
      await revokeInvitationsBeyondAuthority(tx, environmentId, organizationId, userId, null, actor);
    }
  }
}
