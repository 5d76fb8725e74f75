import { and, eq, gt, isNotNull, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { consumeCode, invalidCode, findLiveCode, issueCode } from "../auth/one-time-codes";
import { findUserByEmail } from "../auth/sign-in";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import type { RequestContext } from "../operation/request-context";
import { SeeOther } from "../operation/see-other";

export const VERIFICATION_LINK_MINUTES = 24 * 60;

export const verifyEmailBody = z.strictObject({ token: z.string().min(1).max(200) }).meta({ id: "EmailVerificationConfirm" });

/** An address that still counts: verified, or pending within its link's lifetime (a lapsed one is gone). */
export function liveAddress(now: Date) {
  return or(isNotNull(emailAddresses.verifiedAt), isNull(emailAddresses.expiresAt), gt(emailAddresses.expiresAt, now));
}

/** When an address added (or re-sent) now lapses unless verified: together with its link. */
export function pendingDeadline(): Date {
  return new Date(Date.now() + VERIFICATION_LINK_MINUTES * 60_000);
}

/** Issues a single-use link for one address of a user and emails it there. Runs in the caller's transaction. */
export async function sendVerificationLink(
  db: Database,
  environment: EnvironmentContext,
  user: { id: string; locale: "en" | "da" | null },
  email: string,
): Promise<void> {
  const { token } = await issueCode(db, {
    environmentId: environment.id,
    purpose: "email_verification",
    email,
    userId: user.id,
    lifetimeMinutes: VERIFICATION_LINK_MINUTES,
    withCode: false,
  });
  // Under the environment's own host, so the link resolves the tenant without a key.
  const url = environmentUrl(linkBase(environment, null), "/_svc/users/me/email-addresses/verify", { token });
  await sendEmail(db, {
    template: "email_verification_link",
    to: email,
    locale: emailLocale(environment, user.locale),
    environment: emailEnvironment(environment),
    props: { url, expiresInMinutes: VERIFICATION_LINK_MINUTES },
  });
}

/** Emails a link that verifies the caller's primary address (clears the EMAIL_VERIFICATION gate). */
export async function resendVerificationEmail(db: Database, environment: EnvironmentContext, current: ActiveSession) {
  const { user } = current;
  if (!user.email) throw new AppError("invalid_request", "You have no email address to verify.");
  if (user.emailVerifiedAt) return { status: "already_verified" };
  const email = user.email;
  await db.transaction((tx) => sendVerificationLink(tx, environment, user, email));
  return { status: "sent" };
}

function addressTaken(): AppError {
  return new AppError("identifier_exists", "This address belongs to another account; the link added nothing.");
}

/** What a live link would verify, without verifying it: the answer to opening (GET) the link. */
export async function inspectVerificationLink(db: Database, environment: EnvironmentContext, token: string) {
  const row = await findLiveCode(db, environment.id, "email_verification", token);
  if (!row?.userId) throw invalidCode();
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).limit(1);
  // Whose account the address joins, masked: someone who added a stranger's address must
  // not be able to pass the confirmation off as "your account" to the stranger.
  return { status: "pending" as const, email: row.email, account: maskEmail(owner?.email ?? null) };
}

/** `ada@example.com` → `a•••@example.com`: enough to recognise one's own account, not to learn another's. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

/**
 * Opening the emailed link changes nothing: mail scanners and link previews fetch
 * links before (or instead of) the person, so a GET must not verify. A browser is
 * sent, on the host it came in on, to the hosted page whose button confirms with a
 * POST; code gets what the link would verify.
 */
export async function openVerificationLink(db: Database, environment: EnvironmentContext, token: string, context: RequestContext) {
  if (!context.acceptsHtml) return inspectVerificationLink(db, environment, token);
  // The confirmation page is on the host the link was opened on, where the flow's cookie lives.
  return new SeeOther(environmentUrl(linkBase(environment, context.host), "/verify-email/confirm", { token }));
}

/**
 * Confirms the link (POST): marks the address verified, once. The token alone
 * proves the mailbox, so no session is needed. The link fails, changing nothing,
 * when its address was removed or lapsed meanwhile (invalid_code) or when another
 * account holds the address by now (identifier_exists): of several people adding
 * one address, whoever proves the mailbox first holds it.
 */
export async function verifyEmailLink(db: Database, environment: EnvironmentContext, token: string, requestId: string) {
  const code = await findLiveCode(db, environment.id, "email_verification", token);
  if (!code?.userId) throw invalidCode();
  const userId = code.userId;
  try {
    return await db.transaction(async (tx) => {
      if (!(await consumeCode(tx, code, null))) throw invalidCode();
      const now = new Date();
      const [address] = await tx
        .select()
        .from(emailAddresses)
        .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.email, code.email), liveAddress(now)))
        .for("update");
      if (!address) throw invalidCode();
      if (!address.verifiedAt) {
        const holder = await findUserByEmail(tx, environment.id, code.email);
        if (holder && holder.id !== userId) throw addressTaken();
        // The unique index on verified addresses settles a race with another verification.
        await tx.update(emailAddresses).set({ verifiedAt: now, expiresAt: null }).where(eq(emailAddresses.id, address.id));
      }
      await tx
        .update(users)
        .set({ emailVerifiedAt: now, updatedAt: now })
        .where(and(eq(users.id, userId), eq(users.email, code.email)));
      await recordEvent(tx, {
        environmentId: environment.id,
        type: "email.verified",
        actor: { type: "user", id: userId, requestId },
        subjectId: userId,
      });
      return { status: "verified" as const, email: code.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw addressTaken();
    throw error;
  }
}
