import { and, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, organizationInvitations, organizations, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import { enforceIdentifierRateLimit } from "../rate-limit/enforce";
import { newInvitationSecrets, opensInvitation, presentedSecret, secretHashes, type PresentedSecret } from "./invitation-secrets";
import type { InvitationSummary, OrganizationInvitation } from "./invitations-schemas";
import type { MyOrganization } from "./memberships";
import { addMembership, memberAsRead, memberUnderLock, type OrganizationCaller } from "./memberships";
import { assertMayManageRole, assertWithinAuthority, type RoleAuthority } from "./role-authority";
import { inviterStillOffers, revokePendingInvitations } from "./invitation-revocation";
import { findRole, lockRoleSet, MANAGE_INVITATIONS, readRoleSet, roleOrBare } from "./roles";

/** How long an invitation's link works, from its last send. */
export const INVITATION_LIFETIME_DAYS = 7;

export type InvitationRow = typeof organizationInvitations.$inferSelect;

/**
 * Who sends or manages an invitation: a member acting through the Client API, whose
 * role bounds the roles they may offer or touch (assertMayManageRole: owner
 * invitations only by owners, from a recent sign-in), or the back-end (a secret key
 * or an operator), trusted with every role.
 */
export interface Inviter {
  actor: Actor;
  caller: OrganizationCaller;
}

/**
 * The inviter's authority as of the organization's row lock, which the caller's
 * transaction holds: a demotion or removal committed since the pipeline read the
 * membership must not let the old role invite (memberUnderLock).
 */
function authorityUnderLock(tx: Database, environmentId: string, organizationId: string, inviter: Inviter): Promise<RoleAuthority> {
  return memberUnderLock(tx, environmentId, organizationId, inviter.caller, MANAGE_INVITATIONS);
}

/** A new invitation's role: one of the environment's set (400) within the inviter's reach (403). */
async function assertRoleOffered(db: Database, environmentId: string, authority: RoleAuthority, roleKey: string): Promise<void> {
  const role = findRole(await readRoleSet(db, environmentId), roleKey);
  if (!role) throw invalidField("role", "is not a role of the environment's role set");
  assertMayManageRole(authority, role);
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

/** What invite and resend answer: the API token this once, never the mail ticket. */
function toOrganizationInvitation(row: InvitationRow, token: string): OrganizationInvitation {
  return { id: row.id, organizationId: row.organizationId, email: row.email, role: row.role, token, expiresAt: row.expiresAt.toISOString() };
}

/**
 * The organization, or 404. `forUpdate` takes its row lock, which every change to its
 * memberships and its deletion take first: locked before an invitation row, so an
 * accept and a deletion (whose cascade reaches the invitation) queue instead of deadlocking.
 */
async function findOrganization(db: Database, environmentId: string, organizationId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.environmentId, environmentId)))
    .limit(1);
  const [organization] = options.forUpdate ? await query.for("update") : await query;
  if (!organization) throw new AppError("resource_not_found", "No organization with this id.");
  return organization;
}

/**
 * Emails the invitation link (the hosted landing page, on the environment's host) in
 * the caller's transaction: when the email cannot be sent, nothing is stored (503).
 * The link carries the mail ticket, the one secret that proves the mailbox; its
 * parameter keeps the name `token` so links already in inboxes keep their shape.
 */
async function sendInvitationEmail(
  tx: Database,
  environment: EnvironmentContext,
  invitation: { email: string; role: string; organizationName: string; ticket: string; invitedBy: string | null },
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
      url: environmentUrl(linkBase(environment, host), "/invitations/accept", { token: invitation.ticket }),
      expiresInDays: INVITATION_LIFETIME_DAYS,
    },
  });
}

/**
 * Invites an address to the organization with a role of the environment's set: stores
 * its token and mail ticket hashed, emails the link (with the ticket), records
 * `organization.invitation_created`, all in one transaction. Counts against the
 * organization's invitation limit (`rateLimits.organizationInvitations`), so one
 * member cannot flood inboxes.
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
  await assertRoleOffered(db, environment.id, memberAsRead(inviter.caller), input.role);
  await enforceIdentifierRateLimit(db, environment, "organizationInvitations", organization.id);
  const secrets = newInvitationSecrets();
  const invitedBy = inviter.actor.type === "user" ? inviter.actor.id : null;
  return db.transaction(async (tx) => {
    // The inviter's row before the organization's: the insert's foreign key to it waits
    // on a deletion of the inviter, which holds that row and then takes the organization
    // (release-memberships.ts); taken in that same order the two queue, never deadlock.
    if (invitedBy) await tx.select({ id: users.id }).from(users).where(eq(users.id, invitedBy)).for("key share");
    // Checked again under the locks: the organization may be gone (its deletion would
    // fail the insert), the role dropped from the set, or the inviter's own role
    // changed, since the checks above.
    await findOrganization(tx, environment.id, organization.id, { forUpdate: true });
    const authority = await authorityUnderLock(tx, environment.id, organization.id, inviter);
    await lockRoleSet(tx, environment.id, "shared");
    await assertRoleOffered(tx, environment.id, authority, input.role);
    const [row] = await tx
      .insert(organizationInvitations)
      .values({
        environmentId: environment.id,
        organizationId: organization.id,
        email: input.email,
        role: input.role,
        ...secretHashes(secrets),
        invitedBy,
        expiresAt: expiry(),
      })
      .returning();
    if (!row) throw new Error("invitation insert returned no row");
    await sendInvitationEmail(tx, environment, { ...row, organizationName: organization.name, ticket: secrets.ticket }, host);
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.invitation_created",
      actor: inviter.actor,
      subjectId: organization.id,
      data: { invitationId: row.id, role: row.role },
    });
    return toOrganizationInvitation(row, secrets.token);
  });
}

/**
 * One page of the organization's invitations of one status, newest first, by keyset
 * on the (organization, createdAt, id) index; the cursor is the last invitation's id.
 * A cursor of another organization or environment is 400, never another's page.
 */
export async function listInvitations(
  db: Database,
  environmentId: string,
  organizationId: string,
  page: { status: InvitationRow["status"]; limit: number; cursor?: string },
): Promise<{ items: InvitationSummary[]; nextCursor: string | null; hasMore: boolean }> {
  await findOrganization(db, environmentId, organizationId);
  const rows = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.environmentId, environmentId),
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.status, page.status),
        page.cursor
          ? sql`(${organizationInvitations.createdAt}, ${organizationInvitations.id}) < (select c.created_at, c.id from organization_invitations c where c.id = ${page.cursor} and c.organization_id = ${organizationId} and c.environment_id = ${environmentId})`
          : undefined,
      ),
    )
    .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id))
    .limit(page.limit + 1);
  // A foreign cursor matches no row, so the comparison is null and the page empty: only then is it worth asking why.
  if (rows.length === 0 && page.cursor) {
    await findInvitation(db, environmentId, organizationId, page.cursor).catch((error: unknown) => {
      throw error instanceof AppError ? new AppError("invalid_request", "cursor: is not a nextCursor of this organization's invitations.") : error;
    });
  }
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toInvitationSummary);
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
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
 * Sends a pending invitation again with a new token, a new mail ticket and a fresh
 * 7 days: the old token and link stop working at once (their hashes are replaced in
 * the same conditional UPDATE).
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
  assertMayManageRole(memberAsRead(inviter.caller), roleOrBare(await readRoleSet(db, environment.id), current.role));
  if (current.status !== "pending") throw notPending(current);
  await enforceIdentifierRateLimit(db, environment, "organizationInvitations", organization.id);
  const secrets = newInvitationSecrets();
  return db.transaction(async (tx) => {
    // A resend hands out a new token for the role: asked again of the inviter as of the lock.
    await findOrganization(tx, environment.id, organization.id, { forUpdate: true });
    const authority = await authorityUnderLock(tx, environment.id, organization.id, inviter);
    assertMayManageRole(authority, roleOrBare(await readRoleSet(tx, environment.id), current.role));
    const [row] = await tx
      .update(organizationInvitations)
      .set({ ...secretHashes(secrets), expiresAt: expiry(), lastSentAt: new Date(), sendCount: current.sendCount + 1 })
      .where(and(eq(organizationInvitations.id, current.id), eq(organizationInvitations.status, "pending")))
      .returning();
    if (!row) throw notPending(await findInvitation(tx, environment.id, organization.id, invitationId));
    await sendInvitationEmail(tx, environment, { ...row, organizationName: organization.name, ticket: secrets.ticket }, host);
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "organization.invitation_resent",
      actor: inviter.actor,
      subjectId: organization.id,
      data: { invitationId: row.id },
    });
    return toOrganizationInvitation(row, secrets.token);
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
  return db.transaction(async (tx) => {
    await findOrganization(tx, environment.id, organizationId, { forUpdate: true });
    const authority = await authorityUnderLock(tx, environment.id, organizationId, inviter);
    const current = await findInvitation(tx, environment.id, organizationId, invitationId);
    // Revoking gives nobody anything: within the caller's reach is enough, with no recent sign-in asked.
    assertWithinAuthority(authority, roleOrBare(await readRoleSet(tx, environment.id), current.role));
    if (current.status === "revoked") return toInvitationSummary(current);
    const [row] = await revokePendingInvitations(tx, environment.id, organizationId, [current.id], inviter.actor);
    if (!row) {
      const now = await findInvitation(tx, environment.id, organizationId, invitationId);
      if (now.status === "revoked") return toInvitationSummary(now);
      throw notPending(now);
    }
    return toInvitationSummary(row);
  });
}

/**
 * One answer for a secret that opens nothing: unknown, of another environment, superseded
 * by a resend, of a deleted organization, or a token given where only the ticket counts.
 * CONTRACT §4: a wrong token or ticket is 400 invalid_code, like a wrong code; a 404
 * would name a resource the caller never had.
 */
function unknownSecret(secret: PresentedSecret): AppError {
  return new AppError("invalid_code", `No invitation matches this ${secret.use === "signUp" ? "ticket" : "token"}.`);
}

/** CONTRACT §4: an expired token is invalid_code too; the detail says which, as the landing page already does. */
function expiredSecret(): AppError {
  return new AppError("invalid_code", "This invitation has expired; ask for a new one.");
}

/**
 * The invitation a presented secret opens in this environment (see invitation-secrets:
 * signing up takes only the mail ticket), if it can still be accepted; else the error
 * that says why: unknown or expired (400 invalid_code), revoked (410) or already accepted (409).
 */
export async function findUsableInvitation(db: Database, environmentId: string, secret: PresentedSecret): Promise<InvitationRow> {
  const [row] = await db.select().from(organizationInvitations).where(opensInvitation(secret)).limit(1);
  if (!row || row.environmentId !== environmentId) throw unknownSecret(secret);
  if (row.status !== "pending") throw notPending(row);
  if (row.expiresAt.getTime() <= Date.now()) throw expiredSecret();
  return row;
}

/** An invitation the claim's transaction holds (holdInvitation): the organization locked, the inviter's authority checked. */
export interface HeldInvitation {
  row: InvitationRow;
  secret: PresentedSecret;
}

/**
 * The first step of a claim's transaction, before it writes anything: takes the
 * inviting member's user row (FOR KEY SHARE: a ban or deletion of the inviter
 * waits; before the organization's, in the order inviting and a deletion take them)
 * and the organization's row lock (accepts, membership changes and deletion take it
 * first), then asks whether the inviter may still offer the role (inviterStillOffers).
 * Someone banned, deleted, removed, or whose role or role set no longer lets them
 * offer it, hands out nothing: the invitation is revoked, audited as every revoke
 * (Gatehouse acting, in this request), and null says the claim must stop with that
 * revocation committed.
 */
async function holdInvitation(tx: Database, row: InvitationRow, secret: PresentedSecret, requestId: string | null): Promise<HeldInvitation | null> {
  if (row.invitedBy) await tx.select({ id: users.id }).from(users).where(eq(users.id, row.invitedBy)).for("key share");
  // An organization deleted since the lookup took its invitations with it: the link is unknown now.
  await findOrganization(tx, row.environmentId, row.organizationId, { forUpdate: true }).catch(() => {
    throw unknownSecret(secret);
  });
  if (await inviterStillOffers(tx, row)) return { row, secret };
  const revoked = await revokePendingInvitations(tx, row.environmentId, row.organizationId, [row.id], { type: "system", id: null, requestId });
  // No longer pending (accepted or revoked since the lookup): the claim's conditional UPDATE fails and says which.
  return revoked.length > 0 ? null : { row, secret };
}

/**
 * Runs a claim of an invitation in one transaction: holdInvitation first, then
 * `claim`, which makes the user (if it must), spends the invitation with
 * claimInvitation and joins. When the inviter's authority is gone, the transaction
 * commits the revocation alone (nothing else was written yet) and the caller gets
 * 410 invitation_revoked, as the invitee will from now on.
 */
export async function inClaimTransaction<T>(
  db: Database,
  row: InvitationRow,
  secret: PresentedSecret,
  requestId: string | null,
  claim: (tx: Database, held: HeldInvitation) => Promise<T>,
): Promise<T> {
  const outcome = await db.transaction(async (tx) => {
    const held = await holdInvitation(tx, row, secret, requestId);
    return held ? { claimed: true as const, value: await claim(tx, held) } : { claimed: false as const };
  });
  if (!outcome.claimed) throw notPending({ status: "revoked" });
  return outcome.value;
}

/**
 * Marks the held invitation accepted by `userId`, or throws: the conditional UPDATE
 * lets exactly one of any number of concurrent accepts win; the others see it
 * accepted (or revoked, or expired meanwhile). It also requires the presented
 * secret to still open the row, so a resend between lookup and claim makes the
 * superseded link lose.
 */
export async function claimInvitation(tx: Database, { row, secret }: HeldInvitation, userId: string): Promise<void> {
  const now = new Date();
  const [claimed] = await tx
    .update(organizationInvitations)
    .set({ status: "accepted", acceptedBy: userId, acceptedAt: now })
    .where(
      and(
        eq(organizationInvitations.id, row.id),
        opensInvitation(secret),
        eq(organizationInvitations.status, "pending"),
        gt(organizationInvitations.expiresAt, now),
      ),
    )
    .returning({ id: organizationInvitations.id });
  if (claimed) return;
  const [current] = await tx.select().from(organizationInvitations).where(eq(organizationInvitations.id, row.id));
  if (current && current.status !== "pending") throw notPending(current);
  if (current && current.expiresAt.getTime() > now.getTime()) throw unknownSecret(secret);
  throw expiredSecret();
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

/**
 * Accepts an invitation for the signed-in user, whose verified addresses must include
 * the invited one; a different account gets 403 invitation_wrong_account naming the
 * invited address (the token's holder read it in the email already) and nothing else.
 * `token` may be the API token or the mail ticket: either way the verified address,
 * not the secret, proves who the user is.
 */
export async function acceptInvitation(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  user: { id: string; email: string | null },
  actor: Actor,
): Promise<MyOrganization> {
  const secret = presentedSecret(token, "accept");
  const row = await findUsableInvitation(db, environment.id, secret);
  const owned = await ownsVerifiedAddress(db, environment.id, user.id, row.email);
  if (!owned) {
    throw new AppError(
      "invitation_wrong_account",
      `This invitation is for ${row.email}, and you are signed in as ${user.email ?? "an account without that verified address"}. Switch account to accept it.`,
      { properties: { invitedEmail: row.email } },
    );
  }
  return inClaimTransaction(db, row, secret, actor.requestId, async (tx, held) => {
    await claimInvitation(tx, held, user.id);
    return joinFromInvitation(tx, environment, row, user.id, actor);
  });
}
