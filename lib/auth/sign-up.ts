import { and, eq, isNotNull } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { environmentUrl, linkBase, type LinkBase } from "../environments/environment-links";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { recordLegalAcceptance } from "../legal/legal-acceptance";
import { enforceEmailCodeLimit, refundEmailCodeGuess } from "../rate-limit/email-code-limits";
import { enforceRateLimit } from "../rate-limit/enforce";
import { emailTaken } from "../users/create-user";
import { assertMetadataFits } from "../users/metadata";
import { assertCaptchaPassed } from "./captcha";
import { establishSession, type Establishment } from "../sessions/establish-session";
import {
  cancelLiveCodes,
  CODE_LIFETIME_MINUTES,
  codeExhausted,
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

/** Codes one sign-up token may have sent, so one token cannot flood an inbox. */
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
 * very same response, so sign-up cannot be used to probe for accounts. Older
 * pending sign-ups of the address end here, and the email counts against the
 * address's daily send cap (429 when over it), for new and existing accounts alike.
 */
export async function beginSignUp(
  db: Database,
  environment: EnvironmentContext,
  input: z.output<typeof signUpBody>,
  context: RequestContext,
): Promise<{ token: string; email: string }> {
  const { settings } = environment;
  if (!settings.signUp.enabled) throw new AppError("forbidden", "Sign-up is closed for this application.");
  await enforceRateLimit(db, environment, "signUp", context, input.email);
  if (settings.legal.requireConsent && input.legalConsentAccepted !== true) {
    throw new AppError("legal_consent_required", "Accept the terms (legalConsentAccepted: true) to sign up; see GET /_svc/legal.");
  }
  if (input.unsafeMetadata) assertMetadataFits({ unsafeMetadata: input.unsafeMetadata });
  await assertCaptchaPassed(environment, input.captchaToken, context.ip);
  await assertPasswordAllowed(settings.passwordPolicy, input.password);
  // Hash in both branches so an existing address costs the same time as a new one.
  const passwordHash = await hashPassword(input.password);
  const existingAccount = await addressTaken(db, environment.id, input.email);
  const locale = emailLocale(environment, input.locale);

  return db.transaction(async (tx) => {
    // Counted inside the transaction: a send that fails (503) is rolled back with it.
    await enforceEmailCodeLimit(tx, environment, "codeSendsPerEmail", "sign_up", input.email);
    await cancelLiveCodes(tx, environment.id, "sign_up", input.email);
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
    await sendSignUpEmail(tx, environment, linkBase(environment, context.host), input.email, locale, existingAccount, issued.code ?? "");
    return { token: issued.token, email: input.email };
  });
}

async function sendSignUpEmail(
  db: Database,
  environment: EnvironmentContext,
  links: LinkBase,
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
      props: { signInUrl: environmentUrl(links, "/sign-in"), resetPasswordUrl: environmentUrl(links, "/forgot-password") },
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

/**
 * Emails a fresh code for a pending sign-up; the previous code stops working. The
 * token's wrong guesses carry over, so a token that used them all is dead for good.
 */
export async function resendSignUpCode(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  context: RequestContext,
): Promise<{ token: string; email: string }> {
  await enforceRateLimit(db, environment, "emailSends", context, token);
  const row = await findLiveCode(db, environment.id, "sign_up", token);
  if (!row || codeExhausted(row)) throw invalidCode();
  if (row.sendCount >= MAX_SIGN_UP_SENDS) {
    throw new AppError("rate_limited", "This sign-up has had its last code; start again.", { headers: { "retry-after": "600" } });
  }
  const pending = row.payload as PendingSignUp;
  await db.transaction(async (tx) => {
    await enforceEmailCodeLimit(tx, environment, "codeSendsPerEmail", "sign_up", row.email);
    const code = await reissueCode(tx, row);
    await sendSignUpEmail(tx, environment, linkBase(environment, context.host), row.email, emailLocale(environment, pending.locale), Boolean(pending.existingAccount), code);
  });
  return { token, email: row.email };
}

/**
 * Verifies the code and, in one transaction, consumes it, creates the user (email
 * verified: the code proved it), records legal acceptance and opens the session.
 * Of concurrent verifications with the right code exactly one succeeds. Every
 * guess counts against the address's daily cap across all its sign-up tokens;
 * over it the answer is 429 rate_limited and the code is not even checked.
 */
export async function verifySignUp(
  db: Database,
  environment: EnvironmentContext,
  input: { token: string; code: string },
  context: RequestContext,
): Promise<Establishment> {
  await enforceRateLimit(db, environment, "codeAttempts", context, input.token);
  const row = await findLiveCode(db, environment.id, "sign_up", input.token);
  if (!row) throw invalidCode();
  await enforceEmailCodeLimit(db, environment, "codeFailuresPerEmail", "sign_up", row.email);
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
      if (pending.legalConsentAccepted) await recordLegalAcceptance(tx, environment, user.id, context.ip);
      await recordEvent(tx, {
        environmentId: environment.id,
        type: "user.signed_up",
        actor: { type: "user", id: user.id, requestId: context.requestId },
        subjectId: user.id,
      });
      // The password was chosen here and the code proved the mailbox.
      return establishSession(tx, environment, user, { methods: ["pwd", "email_code"] }, context);
    });
    if (opened) {
      await refundEmailCodeGuess(db, environment, "sign_up", row.email);
      return opened;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await recordFailedAttempt(db, row);
  throw invalidCode();
}
