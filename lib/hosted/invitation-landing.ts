import { and, eq } from "drizzle-orm";
import { getDb, type Database } from "@/db/client";
import { organizationInvitations, organizations } from "@/db/schema";
import { isMailTicket, opensInvitation, presentedSecret } from "../organizations/invitation-secrets";
import { findRole, readRoleSet } from "../organizations/roles";
import { listEmailAddressesEndpoint } from "../users/me-endpoints";
import { acceptedSession, loadOperation, type HostedPage } from "./load-operation";

/** Where an invitation link stands, as the landing page tells it. */
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationLanding {
  status: InvitationStatus;
  organizationId: string;
  organizationName: string;
  email: string;
  /** The role's display name, else its key. */
  roleName: string;
  /** Whether the link carries the mail ticket, the one secret that may create an account; an API token only lets an existing account accept. */
  canCreateAccount: boolean;
}

/** Who is looking at the link: nobody signed in, the invited person, or someone else. */
export type InvitationViewer = { kind: "signedOut" } | { kind: "invitee" } | { kind: "otherAccount"; current: string };

/**
 * What the landing page `/invitations/accept?token=` shows about a link: the
 * organization, the role and the invited address (the email carried all three),
 * and whether it can still be accepted. `token` is the emailed mail ticket, or an
 * API token an app put in its own email. Null for a secret this environment does
 * not know. Accepting is the operation's: this is only the page's read.
 */
export async function readInvitationLanding(db: Database, environmentId: string, token: string): Promise<InvitationLanding | null> {
  const secret = presentedSecret(token, "accept");
  const [row] = await db
    .select({
      ticketHash: organizationInvitations.ticketHash,
      status: organizationInvitations.status,
      expiresAt: organizationInvitations.expiresAt,
      email: organizationInvitations.email,
      role: organizationInvitations.role,
      organizationId: organizations.id,
      organizationName: organizations.name,
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .where(and(opensInvitation(secret), eq(organizationInvitations.environmentId, environmentId)))
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
    canCreateAccount: isMailTicket(row, secret),
  };
}

/**
 * The landing page's read: the link (no Client API operation describes an
 * invitation to whoever holds its link) and who is looking at it. Signed out is a
 * viewer like any other here, not a reason for sign-in; a signed-in session is
 * asked for its addresses through loadOperation, so one held by a gate goes to the
 * gate's page first. The invitee is whoever has verified the invited address, the
 * one condition under which accepting works (ownsVerifiedAddress).
 */
export async function loadInvitationPage(page: HostedPage, token: string): Promise<{ landing: InvitationLanding | null; viewer: InvitationViewer }> {
  const landing = token ? await readInvitationLanding(getDb(), page.environment.id, token) : null;
  if (!page.session || landing?.status !== "pending") return { landing, viewer: { kind: "signedOut" } };
  const addresses = await loadOperation(page, listEmailAddressesEndpoint);
  if (addresses.items.some((address) => address.verified && address.email === landing.email)) return { landing, viewer: { kind: "invitee" } };
  const { user } = acceptedSession(page);
  return { landing, viewer: { kind: "otherAccount", current: user.email ?? user.id } };
}
