import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { consumeCode, invalidCode, findLiveCode, issueCode } from "../auth/one-time-codes";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import { issuerFor } from "../tokens/issuer";
import type { RequestContext } from "../http/request-context";
import { SeeOther } from "../http/see-other";

export const VERIFICATION_LINK_MINUTES = 24 * 60;

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
  const url = `${issuerFor(environment)}/users/me/email-addresses/verify?token=${encodeURIComponent(token)}`;
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

/**
 * The emailed link's target: marks the address verified, once. The token alone
 * proves ownership of the mailbox, so no session is needed to open the link.
 */
export async function verifyEmailLink(db: Database, environment: EnvironmentContext, token: string, requestId: string) {
  const row = await findLiveCode(db, environment.id, "email_verification", token);
  if (!row?.userId) throw invalidCode();
  const userId = row.userId;
  return db.transaction(async (tx) => {
    if (!(await consumeCode(tx, row, null))) throw invalidCode();
    const now = new Date();
    await tx
      .update(emailAddresses)
      .set({ verifiedAt: now })
      .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.email, row.email)));
    await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.email, row.email)));
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "email.verified",
      actor: { type: "user", id: userId, requestId },
      subjectId: userId,
    });
    return { status: "verified", email: row.email };
  });
}

/**
 * The link as a person opens it: verify, then land on the hosted verification page,
 * which shows the outcome (or asks to sign in) instead of raw JSON. Code asking for
 * JSON gets the JSON answer, errors included.
 */
export async function openVerificationLink(db: Database, environment: EnvironmentContext, token: string, context: RequestContext) {
  if (!context.acceptsHtml) return verifyEmailLink(db, environment, token, context.requestId);
  await verifyEmailLink(db, environment, token, context.requestId).catch((error: unknown) => {
    if (!(error instanceof AppError)) throw error;
  });
  return new SeeOther(environmentUrl(linkBase(environment, context.host), "/verify-email"));
}
