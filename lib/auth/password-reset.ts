import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { publicUrl } from "../config/runtime";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { logUnexpectedError } from "../http/log";
import { enforceRateLimit } from "../rate-limit/enforce";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { openSession, sessionResponse, type EstablishedSession } from "./establish-session";
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
  request: Request,
  requestId: string,
): Promise<{ status: "sent" }> {
  await enforceRateLimit(db, environment, "emailSends", request, email);
  const user = await findUserByEmail(db, environment.id, email);
  if (user && user.status === "active") {
    void issueAndSendResetCode(db, environment, user.id, email, user.locale).catch((error: unknown) => logUnexpectedError(requestId, error));
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
  request: Request,
  options: { isNative: boolean; requestId: string },
): Promise<EstablishedSession> {
  await enforceRateLimit(db, environment, "codeAttempts", request, input.email);
  const row = await findLatestLiveCodeForEmail(db, environment.id, "password_reset", input.email);
  if (!row?.userId) throw invalidCode();
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.newPassword, "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  const userId = row.userId;

  const opened = await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, row, input.code))) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), failedSignInCount: 0, lastFailedSignInAt: null, lastSignInAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!user || user.status !== "active") return null;
    const actor = { type: "user", id: user.id, requestId: options.requestId } as const;
    const revokedSessions = await revokeAllUserSessions(tx, { environmentId: environment.id, userId: user.id }, actor, "password_reset");
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "user.password_reset",
      actor,
      subjectId: user.id,
      data: { revokedSessions },
    });
    return openSession(tx, environment, user, request);
  });
  if (!opened) {
    await recordFailedAttempt(db, row);
    throw invalidCode();
  }
  const established = await sessionResponse(db, environment, opened, request, options);
  void sendPasswordChangedNotice(db, environment, input.email, established.body.user.locale).catch((error: unknown) =>
    logUnexpectedError(options.requestId, error),
  );
  return established;
}

/** Tells the owner their password changed, with a way back in if it was not them. */
export async function sendPasswordChangedNotice(
  db: Database,
  environment: EnvironmentContext,
  email: string,
  locale: "en" | "da" | null,
): Promise<void> {
  await sendEmail(db, {
    template: "password_changed",
    to: email,
    locale: emailLocale(environment, locale),
    environment: emailEnvironment(environment),
    props: { changedAt: new Date().toISOString(), resetPasswordUrl: `${publicUrl()}/forgot-password` },
  });
}
