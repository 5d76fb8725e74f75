import { and, eq, isNotNull } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { publicUrl } from "../config/runtime";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { clientIp } from "../http/client-ip";
import { recordLegalAcceptance } from "../legal/legal-acceptance";
import { enforceRateLimit } from "../rate-limit/enforce";
import { emailTaken } from "../users/create-user";
import { assertMetadataFits } from "../users/metadata";
import { assertCaptchaPassed } from "./captcha";
import { openSession, sessionResponse, type EstablishedSession } from "./establish-session";
import {
  CODE_LIFETIME_MINUTES,
  consumeCode,
  findLiveCode,
  invalidCode,
  issueCode,
  recordFailedAttempt,
  reissueCode,
} from "./one-time-codes";
import { hashPassword } from "./password-hasher";
import { assertPasswordAllowed } from "./password-policy";
import type { signUpBody } from "./schemas";

/** Resends of one sign-up code; more would let a guesser reset the attempt counter forever. */
const MAX_SIGN_UP_SENDS = 5;

interface PendingSignUp {
  /** Set when the address already had an account: the row exists only to answer alike. */
  existingAccount?: boolean;
  passwordHash?: string;
  firstName?: string | null;
  lastName?: string | null;
  locale?: "en" | "da" | null;
  unsafeMetadata?: Record<string, unknown>;
  legalConsentAccepted?: boolean;
}

function splitName(name: string | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(" ") || null };
}

/** Only a verified address has an owner: someone else's pending address must not turn its real owner away. */
async function addressTaken(db: Database, environmentId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: emailAddresses.id })
    .from(emailAddresses)
    .where(and(eq(emailAddresses.environmentId, environmentId), eq(emailAddresses.email, email), isNotNull(emailAddresses.verifiedAt)))
    .limit(1);
  return Boolean(row);
}

/**
 * Starts a sign-up: validates, hashes the password, stores the pending sign-up and
 * emails a 6-digit code. No user and no session exist yet. An address that already
 * has an account gets a "you already have an account" email instead, behind the
 * very same response, so sign-up cannot be used to probe for accounts.
 */
export async function beginSignUp(
  db: Database,
  environment: EnvironmentContext,
  input: z.output<typeof signUpBody>,
  request: Request,
): Promise<{ token: string; email: string }> {
  const { settings } = environment;
  if (!settings.signUp.enabled) throw new AppError("forbidden", "Sign-up is closed for this application.");
  await enforceRateLimit(db, environment, "signUp", request, input.email);
  if (settings.legal.requireConsent && input.legalConsentAccepted !== true) {
    throw new AppError("legal_consent_required", "Accept the terms (legalConsentAccepted: true) to sign up; see GET /_svc/legal.");
  }
  if (input.unsafeMetadata) assertMetadataFits({ unsafeMetadata: input.unsafeMetadata });
  await assertCaptchaPassed(environment, input.captchaToken, clientIp(request));
  await assertPasswordAllowed(settings.passwordPolicy, input.password);
  // Hash in both branches so an existing address costs the same time as a new one.
  const passwordHash = await hashPassword(input.password);
  const existingAccount = await addressTaken(db, environment.id, input.email);
  const locale = emailLocale(environment, input.locale);

  return db.transaction(async (tx) => {
    const payload: PendingSignUp = existingAccount
      ? { existingAccount: true }
      : { passwordHash, ...splitName(input.name), locale: input.locale ?? null, unsafeMetadata: input.unsafeMetadata ?? {}, legalConsentAccepted: input.legalConsentAccepted === true };
    const issued = await issueCode(tx, {
      environmentId: environment.id,
      purpose: "sign_up",
      email: input.email,
      payload: { ...payload },
      withCode: true,
    });
    // Sent inside the transaction: if the transport is down nothing is committed and the user can retry.
    await sendSignUpEmail(tx, environment, input.email, locale, existingAccount, issued.code ?? "");
    return { token: issued.token, email: input.email };
  });
}

async function sendSignUpEmail(
  db: Database,
  environment: EnvironmentContext,
  to: string,
  locale: "en" | "da",
  existingAccount: boolean,
  code: string,
): Promise<void> {
  const branding = emailEnvironment(environment);
  if (existingAccount) {
    await sendEmail(db, {
      template: "account_exists",
      to,
      locale,
      environment: branding,
      props: { signInUrl: `${publicUrl()}/sign-in`, resetPasswordUrl: `${publicUrl()}/forgot-password` },
    });
  } else {
    await sendEmail(db, {
      template: "sign_up_code",
      to,
      locale,
      environment: branding,
      props: { code, expiresInMinutes: CODE_LIFETIME_MINUTES },
    });
  }
}

/** Emails a fresh code for a pending sign-up; the previous code stops working. */
export async function resendSignUpCode(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  request: Request,
): Promise<{ token: string; email: string }> {
  await enforceRateLimit(db, environment, "emailSends", request, token);
  const row = await findLiveCode(db, environment.id, "sign_up", token);
  if (!row) throw invalidCode();
  if (row.sendCount >= MAX_SIGN_UP_SENDS) {
    throw new AppError("rate_limited", "This sign-up has had its last code; start again.", { headers: { "retry-after": "600" } });
  }
  const pending = row.payload as PendingSignUp;
  await db.transaction(async (tx) => {
    const code = await reissueCode(tx, row);
    await sendSignUpEmail(tx, environment, row.email, emailLocale(environment, pending.locale), Boolean(pending.existingAccount), code);
  });
  return { token, email: row.email };
}

/**
 * Verifies the code and, in one transaction, consumes it, creates the user (email
 * verified: the code proved it), records legal acceptance and opens the session.
 * Of concurrent verifications with the right code exactly one succeeds.
 */
export async function verifySignUp(
  db: Database,
  environment: EnvironmentContext,
  input: { token: string; code: string },
  request: Request,
  options: { isNative: boolean },
): Promise<EstablishedSession> {
  await enforceRateLimit(db, environment, "codeAttempts", request, input.token);
  const row = await findLiveCode(db, environment.id, "sign_up", input.token);
  if (!row) throw invalidCode();
  const pending = row.payload as PendingSignUp;
  try {
    const opened = await db.transaction(async (tx) => {
      const consumed = await consumeCode(tx, row, input.code);
      if (!consumed || pending.existingAccount || !pending.passwordHash) return null;
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          environmentId: environment.id,
          email: row.email,
          emailVerifiedAt: now,
          passwordHash: pending.passwordHash,
          firstName: pending.firstName ?? null,
          lastName: pending.lastName ?? null,
          locale: pending.locale ?? null,
          unsafeMetadata: pending.unsafeMetadata ?? {},
          lastSignInAt: now,
        })
        .returning();
      if (!user) throw new Error("user insert returned no row");
      await tx.insert(emailAddresses).values({ environmentId: environment.id, userId: user.id, email: row.email, verifiedAt: now });
      if (pending.legalConsentAccepted) await recordLegalAcceptance(tx, environment, user.id, clientIp(request));
      await recordEvent(tx, {
        environmentId: environment.id,
        type: "user.signed_up",
        actor: { type: "user", id: user.id, requestId: null },
        subjectId: user.id,
      });
      return openSession(tx, environment, user, request);
    });
    if (opened) return sessionResponse(db, environment, opened, request, options);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await recordFailedAttempt(db, row);
  throw invalidCode();
}
