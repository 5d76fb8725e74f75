import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { environmentUrl, linkBase, type LinkBase } from "../environments/environment-links";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { logUnexpectedError } from "../http/log";
import { enforceRateLimit } from "../rate-limit/enforce";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import type { RequestContext } from "../http/request-context";
import { establishSession, type Establishment } from "../sessions/establish-session";
import {
  CODE_LIFETIME_MINUTES,
  consumeCode,
  findLatestLiveCodeForEmail,
  invalidCode,
  issueCode,
  recordFailedAttempt,
} from "./one-time-codes";
import { hashPassword } from "./password-hasher";
import { assertPasswordAllowed } from "./password-policy";
import { findUserByEmail } from "./sign-in";

/**
 * Emails a reset code when the address has an account. The answer is the same
 * either way, and the email goes out after the response: a slow or failing mail
 * server must not reveal, by timing or status, which addresses have accounts.
 */
export async function forgotPassword(
  db: Database,
  environment: EnvironmentContext,
  email: string,
  context: RequestContext,
): Promise<{ status: "sent" }> {
  await enforceRateLimit(db, environment, "emailSends", context, email);
  const user = await findUserByEmail(db, environment.id, email);
  if (user && user.status === "active") {
    void issueAndSendResetCode(db, environment, user.id, email, user.locale).catch((error: unknown) => logUnexpectedError(context.requestId, error));
  }
  return { status: "sent" };
}

async function issueAndSendResetCode(
  db: Database,
  environment: EnvironmentContext,
  userId: string,
  email: string,
  locale: "en" | "da" | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { code } = await issueCode(tx, { environmentId: environment.id, purpose: "password_reset", email, userId, withCode: true });
    await sendEmail(tx, {
      template: "password_reset_code",
      to: email,
      locale: emailLocale(environment, locale),
      environment: emailEnvironment(environment),
      props: { code: code ?? "", expiresInMinutes: CODE_LIFETIME_MINUTES },
    });
  });
}

/**
 * Resets the password with the emailed code: every session is revoked and the user
 * is signed in afresh, all in one transaction; then a notice is emailed.
 */
export async function resetPassword(
  db: Database,
  environment: EnvironmentContext,
  input: { email: string; code: string; newPassword: string },
  context: RequestContext,
): Promise<Establishment> {
  await enforceRateLimit(db, environment, "codeAttempts", context, input.email);
  const row = await findLatestLiveCodeForEmail(db, environment.id, "password_reset", input.email);
  if (!row?.userId) throw invalidCode();
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.newPassword, "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  const userId = row.userId;

  let locale: "en" | "da" | null = null;
  const opened = await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, row, input.code))) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), failedSignInCount: 0, lastFailedSignInAt: null, lastSignInAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!user || user.status !== "active") return null;
    locale = user.locale;
    const revokedSessions = await revokeAllUserSessions(tx, user.id);
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "user.password_reset",
      actor: { type: "user", id: user.id, requestId: context.requestId },
      subjectId: user.id,
      data: { revokedSessions },
    });
    // The emailed code proved the mailbox; the new password is not a proof of its own.
    return establishSession(tx, environment, user, { methods: ["email_code"] }, context);
  });
  if (!opened) {
    await recordFailedAttempt(db, row);
    throw invalidCode();
  }
  void sendPasswordChangedNotice(db, environment, linkBase(environment, context.host), input.email, locale).catch((error: unknown) => logUnexpectedError(context.requestId, error));
  return opened;
}

/** Tells the owner their password changed, with a way back in if it was not them. */
export async function sendPasswordChangedNotice(
  db: Database,
  environment: EnvironmentContext,
  links: LinkBase,
  email: string,
  locale: "en" | "da" | null,
): Promise<void> {
  await sendEmail(db, {
    template: "password_changed",
    to: email,
    locale: emailLocale(environment, locale),
    environment: emailEnvironment(environment),
    props: { changedAt: new Date().toISOString(), resetPasswordUrl: environmentUrl(links, "/forgot-password") },
  });
}
