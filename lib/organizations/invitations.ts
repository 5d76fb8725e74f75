import { and, desc, eq, gt, isNotNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, organizationInvitations, organizations, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { randomToken, sha256 } from "../crypto/tokens";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import { enforceIdentifierRateLimit } from "../rate-limit/enforce";
import type { InvitationSummary, OrganizationInvitation } from "./invitations-schemas";
import type { MyOrganization } from "./memberships";
import { addMembership } from "./memberships";
import { findRole, OWNER_ROLE, readRoleSet } from "./roles";

/** How long an invitation's link works, from its last send. */
export const INVITATION_LIFETIME_DAYS = 7;

export type InvitationRow = typeof organizationInvitations.$inferSelect;

/**
 * Who sends or manages an invitation: a member acting through the Client API (their
 * role decides whether they may touch owner invitations) or the back-end with a
 * secret key (`role: null`, trusted with every role).
 */
export interface Inviter {
  actor: Actor;
  role: string | null;
}

function onlyOwnersInviteOwners(inviter: Inviter, role: string): void {
  if (role === OWNER_ROLE && inviter.role !== null && inviter.role !== OWNER_ROLE) {
    throw new AppError("forbidden", "Only an owner can invite an owner or manage an owner's invitation.");
  }
}

function notFound(): AppError {
  return new AppError("resource_not_found", "No invitation with this id in the organization.");
}

function expiry(): Date {
  return new Date(Date.now() + INVITATION_LIFETIME_DAYS * 86_400_000);
}

export function toInvitationSummary(row: InvitationRow): InvitationSummary {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    status: row.status,
    invitedBy: row.invitedBy,
    acceptedBy: row.acceptedBy,
    sendCount: row.sendCount,
    expiresAt: row.expiresAt.toISOString(),
    lastSentAt: row.lastSentAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function findOrganization(db: Database, environmentId: string, organizationId: string) {
  const [organization] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.environmentId, environmentId)))
    .limit(1);
  if (!organization) throw new AppError("resource_not_found", "No organization with this id.");
  return organization;
}

/**
 * Emails the invitation link (the hosted landing page, on the environment's host) in
 * the caller's transaction: when the email cannot be sent, nothing is stored (503).
 */
async function sendInvitationEmail(
  tx: Database,
  environment: EnvironmentContext,
  invitation: { email: string; role: string; organizationName: string; token: string; invitedBy: string | null },
  host: string | null,
): Promise<void> {
  const role = findRole(await readRoleSet(tx, environment.id), invitation.role);
  let inviterName: string | null = null;
  if (invitation.invitedBy) {
    const [inviter] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, invitation.invitedBy));
    inviterName = [inviter?.firstName, inviter?.lastName].filter(Boolean).join(" ") || null;
  }
  await sendEmail(tx, {
    template: "organization_invitation",
    to: invitation.email,
    locale: emailLocale(environment, null),
    environment: emailEnvironment(environment),
    props: {
      organizationName: invitation.organizationName,
      inviterName,
      roleName: role?.name ?? invitation.role,
      url: environmentUrl(linkBase(environment, host), "/invitations/accept", { token: invitation.token }),
      expiresInDays: INVITATION_LIFETIME_DAYS,
    },
  });
}

/**
 * Invites an address to the organization with a role of the environment's set: stores
 * the token hashed, emails the link, records `organization.invitation_created`, all in
 * one transaction. Counts against the organization's invitation limit
 * (`rateLimits.organizationInvitations`), so one member cannot flood inboxes.
 */
export async function inviteToOrganization(
  db: Database,
  environment: EnvironmentContext,
  organizationId: string,
  input: { email: string; role: string },
  inviter: Inviter,
  host: string | null,
): Promise<OrganizationInvitation> {
  const organization = await findOrganization(db, environment.id, organizationId);
  if (!findRole(await readRoleSet(db, environment.id), input.role)) throw invalidField("role", "is not a role of the environment's role set");
  onlyOwnersInviteOwners(inviter, input.role);
  await enforceIdentifierRateLimit(db, environment, "organizationInvitations", organization.id);
  const token = randomToken(32);
  const invitedBy = inviter.actor.type === "user" ? inviter.actor.id : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizationInvitations)
      .values({
        environmentId: environment.id,
        organizationId: organization.id,
        email: input.email,
        role: input.role,
        tokenHash: sha256(token),
        invitedBy,
        expiresAt: expiry(),
      })
      .returning();
    if (!row) throw new Error("invitation insert returned no row");
    await sendInvitationEmail(tx, environment, { ...row, organizationName: organization.name, token }, host);
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.invitation_created",
      actor: inviter.actor,
      subjectId: organization.id,
      data: { invitationId: row.id, role: row.role },
    });
    return { id: row.id, organizationId: row.organizationId, email: row.email, role: row.role, token, expiresAt: row.expiresAt.toISOString() };
  });
}

/** The organization's invitations of one status, newest first. */
export async function listInvitations(
  db: Database,
  environmentId: string,
  organizationId: string,
  query: { status: InvitationRow["status"]; limit: number },
): Promise<{ items: InvitationSummary[] }> {
  await findOrganization(db, environmentId, organizationId);
  const rows = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.environmentId, environmentId),
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.status, query.status),
      ),
    )
    .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id))
    .limit(query.limit);
  return { items: rows.map(toInvitationSummary) };
}

async function findInvitation(db: Database, environmentId: string, organizationId: string, invitationId: string): Promise<InvitationRow> {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.id, invitationId),
        eq(organizationInvitations.environmentId, environmentId),
        eq(organizationInvitations.organizationId, organizationId),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

function notPending(row: Pick<InvitationRow, "status">): AppError {
  return row.status === "accepted"
    ? new AppError("invitation_already_accepted", "This invitation has already been accepted.")
    : new AppError("invitation_revoked", "This invitation was revoked.");
}

/**
 * Sends a pending invitation again with a new token and a fresh 7 days: the old
 * link stops working at once (its hash is replaced in the same conditional UPDATE).
 */
export async function resendInvitation(
  db: Database,
  environment: EnvironmentContext,
  organizationId: string,
  invitationId: string,
  inviter: Inviter,
  host: string | null,
): Promise<OrganizationInvitation> {
  const organization = await findOrganization(db, environment.id, organizationId);
  const current = await findInvitation(db, environment.id, organization.id, invitationId);
  onlyOwnersInviteOwners(inviter, current.role);
  if (current.status !== "pending") throw notPending(current);
  await enforceIdentifierRateLimit(db, environment, "organizationInvitations", organization.id);
  const token = randomToken(32);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizationInvitations)
      .set({ tokenHash: sha256(token), expiresAt: expiry(), lastSentAt: new Date(), sendCount: current.sendCount + 1 })
      .where(and(eq(organizationInvitations.id, current.id), eq(organizationInvitations.status, "pending")))
      .returning();
    if (!row) throw notPending(await findInvitation(tx, environment.id, organization.id, invitationId));
    await sendInvitationEmail(tx, environment, { ...row, organizationName: organization.name, token }, host);
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.invitation_resent",
      actor: inviter.actor,
      subjectId: organization.id,
      data: { invitationId: row.id },
    });
    return { id: row.id, organizationId: row.organizationId, email: row.email, role: row.role, token, expiresAt: row.expiresAt.toISOString() };
  });
}

/** Revokes a pending invitation: its link answers invitation_revoked. Revoking a revoked one changes nothing. */
export async function revokeInvitation(
  db: Database,
  environment: EnvironmentContext,
  organizationId: string,
  invitationId: string,
  inviter: Inviter,
): Promise<InvitationSummary> {
  const current = await findInvitation(db, environment.id, organizationId, invitationId);
  onlyOwnersInviteOwners(inviter, current.role);
  if (current.status === "revoked") return toInvitationSummary(current);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizationInvitations)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(and(eq(organizationInvitations.id, current.id), eq(organizationInvitations.status, "pending")))
      .returning();
    if (!row) {
      const now = await findInvitation(tx, environment.id, organizationId, invitationId);
      if (now.status === "revoked") return toInvitationSummary(now);
      throw notPending(now);
    }
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.invitation_revoked",
      actor: inviter.actor,
      subjectId: organizationId,
      data: { invitationId: row.id },
    });
    return toInvitationSummary(row);
  });
}

/**
 * The invitation a clear token names in this environment, if it can still be
 * accepted; else the error that says why: unknown (404), revoked, already accepted
 * or expired, each its own code.
 */
export async function findUsableInvitation(db: Database, environmentId: string, token: string): Promise<InvitationRow> {
  const [row] = await db.select().from(organizationInvitations).where(eq(organizationInvitations.tokenHash, sha256(token))).limit(1);
  if (!row || row.environmentId !== environmentId) throw new AppError("resource_not_found", "No invitation matches this token.");
  if (row.status !== "pending") throw notPending(row);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError("invitation_expired", "This invitation has expired; ask for a new one.");
  return row;
}

/**
 * Marks the invitation accepted by `userId` in the caller's transaction, or throws:
 * the conditional UPDATE lets exactly one of any number of concurrent accepts win;
 * the others see it accepted (or revoked, or expired meanwhile).
 */
export async function claimInvitation(tx: Database, row: InvitationRow, userId: string): Promise<void> {
  const now = new Date();
  const [claimed] = await tx
    .update(organizationInvitations)
    .set({ status: "accepted", acceptedBy: userId, acceptedAt: now })
    .where(and(eq(organizationInvitations.id, row.id), eq(organizationInvitations.status, "pending"), gt(organizationInvitations.expiresAt, now)))
    .returning({ id: organizationInvitations.id });
  if (claimed) return;
  const [current] = await tx.select().from(organizationInvitations).where(eq(organizationInvitations.id, row.id));
  if (current && current.status !== "pending") throw notPending(current);
  throw new AppError("invitation_expired", "This invitation has expired; ask for a new one.");
}

/** Makes the claimed invitation's user a member with its role, with both audit rows. */
export async function joinFromInvitation(
  tx: Database,
  environment: EnvironmentContext,
  row: InvitationRow,
  userId: string,
  actor: Actor,
): Promise<MyOrganization> {
  const membership = await addMembership(tx, environment, { organizationId: row.organizationId, userId, role: row.role }, actor);
  await recordEvent(tx, {
    environmentId: environment.id,
    type: "organization.invitation_accepted",
    actor,
    subjectId: row.organizationId,
    data: { invitationId: row.id, userId, role: membership.role },
  });
  const organization = await findOrganization(tx, environment.id, row.organizationId);
  return { id: organization.id, name: organization.name, role: membership.role, roleName: membership.roleName };
}

/**
 * Accepts an invitation for the signed-in user, whose verified addresses must include
 * the invited one; a different account gets 403 invitation_wrong_account naming the
 * invited address (the token's holder read it in the email already) and nothing else.
 */
export async function acceptInvitation(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  user: { id: string; email: string | null },
  actor: Actor,
): Promise<MyOrganization> {
  const row = await findUsableInvitation(db, environment.id, token);
  const [owned] = await db
    .select({ id: emailAddresses.id })
    .from(emailAddresses)
    .where(
      and(
        eq(emailAddresses.environmentId, environment.id),
        eq(emailAddresses.userId, user.id),
        eq(emailAddresses.email, row.email),
        isNotNull(emailAddresses.verifiedAt),
      ),
    )
    .limit(1);
  if (!owned) {
    throw new AppError(
      "invitation_wrong_account",
      `This invitation is for ${row.email}, and you are signed in as ${user.email ?? "an account without that verified address"}. Switch account to accept it.`,
      { properties: { invitedEmail: row.email } },
    );
  }
  return db.transaction(async (tx) => {
    await claimInvitation(tx, row, user.id);
    return joinFromInvitation(tx, environment, row, user.id, actor);
  });
}
