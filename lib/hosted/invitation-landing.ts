import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, organizationInvitations, organizations } from "@/db/schema";
import { sha256 } from "../crypto/tokens";
import { findRole, readRoleSet } from "../organizations/roles";

/** Where an invitation link stands, as the landing page tells it. */
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationLanding {
  status: InvitationStatus;
  organizationId: string;
  organizationName: string;
  email: string;
  /** The role's display name, else its key. */
  roleName: string;
}

/**
 * What the landing page `/invitations/accept?token=` shows about a link: the
 * organization, the role and the invited address (the email carried all three),
 * and whether it can still be accepted. Null for a token this environment does
 * not know. Accepting is the operation's: this is only the page's read.
 */
export async function readInvitationLanding(db: Database, environmentId: string, token: string): Promise<InvitationLanding | null> {
  const [row] = await db
    .select({
      status: organizationInvitations.status,
      expiresAt: organizationInvitations.expiresAt,
      email: organizationInvitations.email,
      role: organizationInvitations.role,
      organizationId: organizations.id,
      organizationName: organizations.name,
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .where(and(eq(organizationInvitations.tokenHash, sha256(token)), eq(organizationInvitations.environmentId, environmentId)))
    .limit(1);
  if (!row) return null;
  const status: InvitationStatus = row.status === "pending" && row.expiresAt.getTime() <= Date.now() ? "expired" : row.status;
  const role = findRole(await readRoleSet(db, environmentId), row.role);
  return {
    status,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    email: row.email,
    roleName: role?.name ?? row.role,
  };
}

/** Whether the user has verified `email`: the one condition under which accepting as them works. */
export async function ownsVerifiedAddress(db: Database, environmentId: string, userId: string, email: string): Promise<boolean> {
  const [owned] = await db
    .select({ id: emailAddresses.id })
    .from(emailAddresses)
    .where(
      and(
        eq(emailAddresses.environmentId, environmentId),
        eq(emailAddresses.userId, userId),
        eq(emailAddresses.email, email),
        isNotNull(emailAddresses.verifiedAt),
      ),
    )
    .limit(1);
  return Boolean(owned);
}
