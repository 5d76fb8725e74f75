import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationMemberships, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import { likeContains, trigramCandidates } from "../users/search-users";
import { revokeInvitationsBeyondAuthority } from "./invitation-revocation";
import { memberUnderLock, type OrganizationCaller } from "./memberships";
import { assertMayManageRole } from "./role-authority";
import { findRole, lockRoleSet, OWNER_ROLE, readRoleSet, roleOrBare, type OrgRole } from "./roles";
import { getOrganizationOrThrow } from "./organizations";

const MANAGE_MEMBERS = "org:members:manage";

/**
 * One page of an organization's members, oldest first, by keyset on the
 * (organization, createdAt, id) index; the cursor is the last member's user id.
 * `query` keeps members whose name or email contains it (the users' trigram
 * indexes give the candidates, the ILIKE decides).
 */
export async function listMembers(
  db: Database,
  environmentId: string,
  organizationId: string,
  page: { limit: number; cursor?: string; query?: string },
) {
  const cursorCondition = page.cursor
    ? sql`(${organizationMemberships.createdAt}, ${organizationMemberships.id}) > (select c.created_at, c.id from organization_memberships c where c.organization_id = ${organizationId} and c.user_id = ${page.cursor})`
    : undefined;
  const search = page.query
    ? and(
        or(trigramCandidates(users.name, page.query) ?? sql`true`, trigramCandidates(users.email, page.query) ?? sql`true`),
        or(ilike(users.name, likeContains(page.query)), ilike(users.email, likeContains(page.query))),
      )
    : undefined;
  const [rows, roles] = await Promise.all([
    db
      .select({
        userId: organizationMemberships.userId,
        name: users.name,
        email: users.email,
        role: organizationMemberships.role,
        createdAt: organizationMemberships.createdAt,
      })
      .from(organizationMemberships)
      .innerJoin(users, eq(users.id, organizationMemberships.userId))
      .where(
        and(
          eq(organizationMemberships.environmentId, environmentId),
          eq(organizationMemberships.organizationId, organizationId),
          cursorCondition,
          search,
        ),
      )
      .orderBy(asc(organizationMemberships.createdAt), asc(organizationMemberships.id))
      .limit(page.limit + 1),
    readRoleSet(db, environmentId),
  ]);
  if (rows.length === 0 && page.cursor) await assertMemberCursor(db, organizationId, page.cursor);
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map((row) => ({
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: row.role,
    roleName: findRole(roles, row.role)?.name ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
  return { items, nextCursor: hasMore ? (items.at(-1)?.userId ?? null) : null, hasMore };
}

async function assertMemberCursor(db: Database, organizationId: string, cursor: string): Promise<void> {
  const [row] = await db
    .select({ id: organizationMemberships.id })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, cursor)))
    .limit(1);
  if (!row) throw new AppError("invalid_request", "cursor: is not a nextCursor of this organization's members.");
}

/** The member's row, or 404. */
async function memberOrThrow(tx: Database, organizationId: string, userId: string) {
  const [row] = await tx
    .select({ id: organizationMemberships.id, role: organizationMemberships.role })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("resource_not_found", "No member with this user id in the organization.");
  return row;
}

async function ownerCount(tx: Database, organizationId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.role, OWNER_ROLE)));
  return row?.n ?? 0;
}

/** One member as the members list shows it. */
async function readMember(tx: Database, organizationId: string, userId: string, role: OrgRole) {
  const [row] = await tx
    .select({ name: users.name, email: users.email, createdAt: organizationMemberships.createdAt })
    .from(organizationMemberships)
    .innerJoin(users, eq(users.id, organizationMemberships.userId))
    .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, userId)));
  if (!row) throw new Error("the member just updated is gone");
  return { userId, name: row.name, email: row.email, role: role.key, roleName: role.name, createdAt: row.createdAt.toISOString() };
}

/**
 * Gives a member another role of the environment's set. The organization row is
 * locked, so two demotions cannot both see a second owner: the last owner cannot
 * be demoted (409 last_owner). A member acting through the Client API may neither
 * give nor change a role beyond their own permissions (assertMayManageRole). The
 * member's pending invitations for roles the new one cannot offer are revoked with it.
 */
export async function updateMemberRole(
  db: Database,
  environment: EnvironmentContext,
  organizationId: string,
  userId: string,
  roleKey: string,
  by: OrganizationCaller,
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    await getOrganizationOrThrow(tx, environment.id, organizationId, { forUpdate: true });
    const caller = await memberUnderLock(tx, environment.id, organizationId, by, MANAGE_MEMBERS);
    const member = await memberOrThrow(tx, organizationId, userId);
    await lockRoleSet(tx, environment.id, "shared");
    const roles = await readRoleSet(tx, environment.id);
    const role = findRole(roles, roleKey);
    if (!role) throw invalidField("role", "is not a role of the environment's role set");
    assertMayManageRole(caller, roleOrBare(roles, member.role));
    assertMayManageRole(caller, role);
    if (member.role === role.key) return readMember(tx, organizationId, userId, role);
    if (member.role === OWNER_ROLE && (await ownerCount(tx, organizationId)) <= 1) {
      throw new AppError("last_owner", "An organization always has an owner: make another member owner first.");
    }
    await tx.update(organizationMemberships).set({ role: role.key, updatedAt: new Date() }).where(eq(organizationMemberships.id, member.id));
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.role_changed",
      actor,
      subjectId: organizationId,
      data: { userId, role: role.key, previousRole: member.role },
    });
    await revokeInvitationsBeyondAuthority(tx, environment.id, organizationId, userId, role, actor);
    return readMember(tx, organizationId, userId, role);
  });
}

/**
 * Removes a member. Through the Client API (a user caller) a member may always leave;
 * removing someone else needs org:members:manage and a role no stronger than one's
 * own (an owner only by an owner). The last owner can neither leave nor be removed (409 last_owner).
 * Whoever goes, their pending invitations go with them (revokeInvitationsBeyondAuthority).
 */
export async function removeMember(
  db: Database,
  environmentId: string,
  organizationId: string,
  userId: string,
  by: OrganizationCaller,
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    await getOrganizationOrThrow(tx, environmentId, organizationId, { forUpdate: true });
    const removingOther = by.kind === "user" && by.member?.userId !== userId;
    const caller = await memberUnderLock(tx, environmentId, organizationId, by, removingOther ? MANAGE_MEMBERS : null);
    const member = await memberOrThrow(tx, organizationId, userId);
    if (removingOther) assertMayManageRole(caller, roleOrBare(await readRoleSet(tx, environmentId), member.role));
    if (member.role === OWNER_ROLE && (await ownerCount(tx, organizationId)) <= 1) {
      throw new AppError("last_owner", "An organization always has an owner: make another member owner first.");
    }
    await tx.delete(organizationMemberships).where(eq(organizationMemberships.id, member.id));
    await recordEvent(tx, { environmentId, type: "organization.member_removed", actor, subjectId: organizationId, data: { userId, role: member.role } });
    await revokeInvitationsBeyondAuthority(tx, environmentId, organizationId, userId, null, actor);
  });
}

/** A member as the members list shows it, or 404. */
export async function getMember(db: Database, environmentId: string, organizationId: string, userId: string) {
  const member = await memberOrThrow(db, organizationId, userId);
  const roles = await readRoleSet(db, environmentId);
  return readMember(db, organizationId, userId, findRole(roles, member.role) ?? { key: member.role, name: member.role, permissions: [] });
}
