import { AppError } from "../errors";
import { reverificationRequired } from "../sessions/reverification";
import { OWNER_ROLE, type OrgRole } from "./roles";

/** What the acting member holds: null for the back-end with a secret key, trusted with every role. */
export type RoleHolder = { role: string; permissions: readonly string[] } | null;

/** A RoleHolder acting now, with whether their sign-in is recent (ActingMember). */
export type RoleAuthority = (RoleHolder & { recentSignIn: boolean }) | null;

type ManagedRole = Pick<OrgRole, "key" | "permissions">;

/** The permissions of `role` the actor lacks (the owner key counts as one), or [] when they may manage it. */
function beyondAuthority(by: RoleHolder, role: ManagedRole): string[] {
  if (!by || by.role === OWNER_ROLE) return [];
  if (role.key === OWNER_ROLE) return [OWNER_ROLE];
  return role.permissions.filter((permission) => !by.permissions.includes(permission));
}

/**
 * Whether the actor may give, take away or offer `role`. Only an owner makes or
 * unmakes owners; below that, a member hands out only roles whose permissions are
 * all among their own, so a custom role with org:members:manage (or
 * org:invitations:manage) alone cannot make its holder, or a friend's second
 * address, an admin. The owner rules themselves (last owner) are the caller's.
 */
export function mayManageRole(by: RoleHolder, role: ManagedRole): boolean {
  return beyondAuthority(by, role).length === 0;
}

/** mayManageRole, as a 403 that names what is missing. */
export function assertWithinAuthority(by: RoleHolder, role: ManagedRole): void {
  const beyond = beyondAuthority(by, role);
  if (beyond.length === 0) return;
  if (beyond[0] === OWNER_ROLE) throw new AppError("forbidden", "Only an owner can make, change or invite an owner.");
  throw new AppError("forbidden", `The role "${role.key}" grants ${beyond.join(", ")}, which your role does not have.`, {
    properties: { permission: beyond[0] },
  });
}

/**
 * Whether the actor may give, take away or offer `role` now: assertWithinAuthority,
 * and for the owner role a recent sign-in as well (403 reverification_required), as
 * deleting the organization asks: an owner can delete it, so a stolen owner session
 * that could make another owner (or remove the real ones) could have the
 * organization deleted, or taken, past the reverification deletion asks for.
 */
export function assertMayManageRole(by: RoleAuthority, role: ManagedRole): void {
  assertWithinAuthority(by, role);
  if (by && role.key === OWNER_ROLE && !by.recentSignIn) throw reverificationRequired();
}
