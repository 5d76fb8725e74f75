import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizationInvitations, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { findMembership } from "./memberships";
import { mayManageRole } from "./role-authority";
import { lockRoleSet, MANAGE_INVITATIONS, readRoleSet, roleOrBare, type OrgRole } from "./roles";

type InvitationRow = typeof organizationInvitations.$inferSelect;

/**
 * Revokes those of `invitationIds` that are still pending, each with its
 * organization.invitation_revoked event, in the caller's transaction, which holds the
 * organization's row lock (accepts and resends take it first, so none runs in between).
 * The UPDATE is conditional: an invitation accepted or revoked already stays as it is.
 * Answers the rows revoked now.
 */
export async function revokePendingInvitations(
  tx: Database,
  environmentId: string,
  organizationId: string,
  invitationIds: readonly string[],
  actor: Actor,
): Promise<InvitationRow[]> {
  if (invitationIds.length === 0) return [];
  const revoked = await tx
    .update(organizationInvitations)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        inArray(organizationInvitations.id, [...invitationIds]),
        eq(organizationInvitations.status, "pending"),
      ),
    )
    .returning();
  for (const row of revoked) {
    await recordEvent(tx, { environmentId, type: "organization.invitation_revoked", actor, subjectId: organizationId, data: { invitationId: row.id } });
  }
  return revoked;
}

/**
 * Whether a member holding `held` (null: no longer a member) may still offer `offered`:
 * the rule inviting applies, the invitations permission and the role within reach
 * (mayManageRole). The recent sign-in an owner invitation asks for is about the session
 * acting, not the role held, so it does not count here.
 */
function mayStillOffer(held: Pick<OrgRole, "key" | "permissions"> | null, offered: OrgRole): boolean {
  if (!held || !held.permissions.includes(MANAGE_INVITATIONS)) return false;
  return mayManageRole({ role: held.key, permissions: held.permissions }, offered);
}

/**
 * Whether the member who sent an invitation may still offer its role (mayStillOffer):
 * an active user (not banned, not deleted), still a member, whose role as the role
 * set now defines it still reaches the invitation's. The changes that revoke eagerly
 * (revokeInvitationsBeyondAuthority) do not cover a new role set or a ban, which
 * keeps the membership, so a claim asks this again. The caller's transaction holds
 * the inviter's user row (a ban or deletion waits) and the organization's row lock
 * (a membership change waits); the role set is locked shared here, so a replacement
 * waits too. Invitations of the back-end (no inviting member) belong to nobody's role.
 */
export async function inviterStillOffers(
  tx: Database,
  invitation: Pick<InvitationRow, "environmentId" | "organizationId" | "invitedBy" | "role">,
): Promise<boolean> {
  if (!invitation.invitedBy) return true;
  const [inviter] = await tx.select({ status: users.status }).from(users).where(eq(users.id, invitation.invitedBy));
  if (inviter?.status !== "active") return false;
  const membership = await findMembership(tx, invitation.environmentId, invitation.organizationId, invitation.invitedBy);
  await lockRoleSet(tx, invitation.environmentId, "shared");
  const offered = roleOrBare(await readRoleSet(tx, invitation.environmentId), invitation.role);
  return mayStillOffer(membership && { key: membership.role, permissions: membership.permissions }, offered);
}

/**
 * Revokes the pending invitations `inviterId` sent in the organization for roles they can
 * no longer offer, now that they hold `held` there (null once removed, gone or deleted),
 * in the caller's transaction with the change of their membership. Otherwise a removed
 * or demoted admin's invitations would keep handing out the authority taken from them,
 * e.g. an admin seat for a friend's address, accepted after the admin was thrown out.
 * Invitations of the back-end (no inviting member) belong to nobody's role and stay.
 */
export async function revokeInvitationsBeyondAuthority(
  tx: Database,
  environmentId: string,
  organizationId: string,
  inviterId: string,
  held: OrgRole | null,
  actor: Actor,
): Promise<void> {
  const pending = await tx
    .select({ id: organizationInvitations.id, role: organizationInvitations.role })
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.invitedBy, inviterId),
        eq(organizationInvitations.status, "pending"),
      ),
    );
  if (pending.length === 0) return;
  const roles = held ? await readRoleSet(tx, environmentId) : [];
  const beyond = pending.filter((invitation) => !mayStillOffer(held, roleOrBare(roles, invitation.role)));
  await revokePendingInvitations(
    tx,
    environmentId,
    organizationId,
    beyond.map((invitation) => invitation.id),
    actor,
  );
}
