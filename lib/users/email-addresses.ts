import { and, asc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import { sendEmailAddedNotice, sendPrimaryChangedNotices } from "./address-notices";
import { emailSchema } from "./email";
import { liveAddress, pendingDeadline, sendVerificationLink } from "./email-verification";
import { getLiveUserOrThrow } from "./get-user";

/** How many addresses one user may hold; keeps verification mail from becoming a spam relay. */
export const MAX_EMAIL_ADDRESSES = 10;

export const emailAddressSchema = z
  .object({ id: z.uuid(), email: z.string(), verified: z.boolean(), primary: z.boolean() })
  .meta({ id: "EmailAddress" });

export const emailAddressListSchema = z.object({ items: z.array(emailAddressSchema) }).meta({ id: "EmailAddressList" });
export const addEmailAddressBody = z.strictObject({ email: emailSchema }).meta({ id: "AddEmailAddressRequest" });
export const emailAddressParams = z.object({ emailAddressId: z.uuid("must be a UUID") });

type EmailAddressRow = typeof emailAddresses.$inferSelect;

function toView(row: EmailAddressRow, primaryEmail: string | null) {
  return { id: row.id, email: row.email, verified: row.verifiedAt !== null, primary: row.email === primaryEmail };
}

function alreadyYours(): AppError {
  return new AppError("identifier_exists", "This address is already on your account.");
}

async function currentPrimary(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

async function ownAddressOrThrow(db: Database, userId: string, id: string): Promise<EmailAddressRow> {
  const [row] = await db
    .select()
    .from(emailAddresses)
    .where(and(eq(emailAddresses.id, id), eq(emailAddresses.userId, userId), liveAddress(new Date())))
    .limit(1);
  if (!row) throw new AppError("resource_not_found", "You have no email address with this id.");
  return row;
}

export async function listEmailAddresses(db: Database, current: ActiveSession) {
  const rows = await db
    .select()
    .from(emailAddresses)
    .where(and(eq(emailAddresses.userId, current.user.id), liveAddress(new Date())))
    .orderBy(asc(emailAddresses.createdAt));
  const primary = await currentPrimary(db, current.user.id);
  return { items: rows.map((row) => toView(row, primary)) };
}

/**
 * Adds a pending address: tells the primary address first (email_added), then
 * emails the new one a verification link. A pending address holds nothing (see the
 * schema's unique index), so the answer is the same whether or not another account
 * has the address: adding cannot be used to probe for accounts. If it belongs to
 * someone else when the link is used, the link fails and nothing is added. A
 * pending address lapses with its link.
 */
export async function addEmailAddress(db: Database, environment: EnvironmentContext, current: ActiveSession, email: string, actor: Actor) {
  try {
    return await db.transaction(async (tx) => {
      // The owner's row lock orders this against other address changes, so the checks below hold.
      const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
      const existing = await listEmailAddresses(tx, current);
      if (existing.items.some((item) => item.email === email)) throw alreadyYours();
      if (existing.items.length >= MAX_EMAIL_ADDRESSES) {
        throw new AppError("invalid_request", `You can hold at most ${MAX_EMAIL_ADDRESSES} email addresses.`);
      }
      if (owner.email) await sendEmailAddedNotice(tx, environment, { email: owner.email, locale: owner.locale }, email);
      // Lapsed pending addresses of the caller's own are dropped, so one can be added afresh.
      await tx
        .delete(emailAddresses)
        .where(and(eq(emailAddresses.userId, owner.id), isNull(emailAddresses.verifiedAt), lte(emailAddresses.expiresAt, new Date())));
      const [row] = await tx
        .insert(emailAddresses)
        .values({ environmentId: environment.id, userId: owner.id, email, expiresAt: pendingDeadline() })
        .returning();
      if (!row) throw new Error("email address insert returned no row");
      await sendVerificationLink(tx, environment, owner, email);
      await recordEvent(tx, { environmentId: environment.id, type: "email.added", actor, subjectId: owner.id, data: { emailAddressId: row.id } });
      return toView(row, owner.email);
    });
  } catch (error) {
    // Only the caller's own (user, email) index can object: a pending row holds nothing for others.
    if (isUniqueViolation(error)) throw alreadyYours();
    throw error;
  }
}

/** Emails a fresh verification link for a pending address; the address lives as long as the new link. */
export async function resendEmailAddressVerification(db: Database, environment: EnvironmentContext, current: ActiveSession, id: string) {
  const row = await ownAddressOrThrow(db, current.user.id, id);
  if (row.verifiedAt) throw new AppError("invalid_request", "This address is already verified.");
  await db.transaction(async (tx) => {
    await tx
      .update(emailAddresses)
      .set({ expiresAt: pendingDeadline() })
      .where(and(eq(emailAddresses.id, row.id), isNotNull(emailAddresses.expiresAt)));
    await sendVerificationLink(tx, environment, current.user, row.email);
  });
  return toView(row, current.user.email);
}

/**
 * Makes a verified address the primary one (the address sign-in, resets and notices
 * use). The old primary address and the new one are told, before the change.
 */
export async function promoteEmailAddress(db: Database, environment: EnvironmentContext, current: ActiveSession, id: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    const row = await ownAddressOrThrow(tx, owner.id, id);
    if (!row.verifiedAt) throw new AppError("invalid_request", "Verify this address before making it primary.");
    if (row.email === owner.email) return toView(row, owner.email);
    if (owner.email) await sendPrimaryChangedNotices(tx, environment, { email: owner.email, locale: owner.locale }, row.email);
    await tx.update(users).set({ email: row.email, emailVerifiedAt: row.verifiedAt, updatedAt: new Date() }).where(eq(users.id, owner.id));
    await recordEvent(tx, { environmentId: environment.id, type: "email.primary_changed", actor, subjectId: owner.id, data: { emailAddressId: id } });
    return toView(row, row.email);
  });
}

/** Removes a non-primary address, releasing it for others. */
export async function removeEmailAddress(db: Database, environment: EnvironmentContext, current: ActiveSession, id: string, actor: Actor) {
  await db.transaction(async (tx) => {
    // Under the owner's row lock, so a concurrent promotion cannot make this the primary address in between.
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    const row = await ownAddressOrThrow(tx, owner.id, id);
    if (row.email === owner.email) {
      throw new AppError("invalid_request", "The primary address cannot be removed; make another address primary first.");
    }
    await tx.delete(emailAddresses).where(eq(emailAddresses.id, row.id));
    await recordEvent(tx, { environmentId: environment.id, type: "email.removed", actor, subjectId: owner.id, data: { emailAddressId: id } });
  });
  return { status: "removed" };
}
