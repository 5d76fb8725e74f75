import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { logUnexpectedError } from "../log";
import { consumeEmailCodeLimit, enforceEmailCodeLimit, refundEmailCodeGuess } from "../rate-limit/email-code-limits";
import { enforceRateLimit } from "../rate-limit/enforce";
import { generationOf, issuedAtCurrentGeneration } from "../sessions/sign-in-generation";
import type { UserRow } from "../users/serialize";
import type { RequestContext } from "../operation/request-context";
import { readUserFactors } from "../mfa/user-factors";
import { establishSession, owedFactor, type Establishment, type Proof } from "../sessions/establish-session";
import { applyPasswordReset, assertResetAddressIsTheirs } from "./apply-password-reset";
import {
  cancelLiveCodes,
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
 * Over the address's daily send cap the answer is still the same; no email is sent.
 */
export async function forgotPassword(
  db: Database,
  environment: EnvironmentContext,
  email: string,
  context: RequestContext,
): Promise<{ status: "sent" }> {
  await enforceRateLimit(db, environment, "emailSends", context, email);
  // Counted for unknown addresses too, so the cap behaves alike with or without an account.
  const overCap = (await consumeEmailCodeLimit(db, environment, "codeSendsPerEmail", "password_reset", email)) > 0;
  const user = await findUserByEmail(db, environment.id, email);
  if (user && user.status === "active" && !overCap) {
    void issueAndSendResetCode(db, environment, user, email).catch((error: unknown) => logUnexpectedError(context.requestId, error));
  }
  return { status: "sent" };
}

async function issueAndSendResetCode(db: Database, environment: EnvironmentContext, user: UserRow, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    await cancelLiveCodes(tx, environment.id, "password_reset", email);
    // A reset signs in: like any sign-in on its way, it dies when all the user's sessions are revoked.
    const { code } = await issueCode(tx, {
      environmentId: environment.id,
      purpose: "password_reset",
      email,
      userId: user.id,
      payload: generationOf(user),
      withCode: true,
    });
    await sendEmail(tx, {
      template: "password_reset_code",
      to: email,
      locale: emailLocale(environment, user.locale),
      environment: emailEnvironment(environment),
      props: { code: code ?? "", expiresInMinutes: CODE_LIFETIME_MINUTES },
    });
  });
}

/** No row has the nil id: an address without a live code runs the very same statements and matches nothing. */
const NO_CODE = { id: "00000000-0000-0000-0000-000000000000", tokenHash: "" };

/**
 * Resets the password with the emailed code, in one transaction: the code is spent
 * and, unless a second factor is owed, every session is revoked, the owner is
 * notified and the user is signed in afresh (applyPasswordReset). A user who owes a
 * second factor, or its enrollment, gets the challenge, holding the new password:
 * the reset applies when the challenge is completed, and not before.
 *
 * An unknown address, an address without a live code and a wrong code get the same
 * 400 invalid_code after the same work: the policy check and the argon2 hash run
 * first, always, and each try counts against the IP and the address's daily cap of
 * wrong codes (then 429 for every address alike). A user found banned or deleted
 * rolls the whole transaction back: the code stays unused and the password unchanged.
 */
export async function resetPassword(
  db: Database,
  environment: EnvironmentContext,
  input: { email: string; code: string; newPassword: string },
  context: RequestContext,
): Promise<Establishment> {
  await enforceRateLimit(db, environment, "codeAttempts", context, input.email);
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.newPassword, "newPassword");
  // The cap's answer depends only on the address's counter, so refusing before the hash reveals nothing.
  await enforceEmailCodeLimit(db, environment, "codeFailuresPerEmail", "password_reset", input.email);
  const passwordHash = await hashPassword(input.newPassword);
  const row = await findLatestLiveCodeForEmail(db, environment.id, "password_reset", input.email);

  const opened = await db.transaction(async (tx) => {
    const consumed = await consumeCode(tx, row ?? NO_CODE, input.code);
    if (!consumed) return null;
    const [user] = consumed.userId ? await tx.select().from(users).where(eq(users.id, consumed.userId)).for("update") : [];
    // Thrown, not returned: returning would commit the consumed code.
    if (!user || user.status === "deleted") throw invalidCode();
    if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
    // The code proves a mailbox the account signed in with when it was sent: not once all its
    // sessions were revoked since (a password change, sign-out everywhere…), nor once the
    // address is no longer the account's (changed by the operator, removed).
    if (!issuedAtCurrentGeneration(consumed.payload, user)) throw invalidCode();
    const reset = { passwordHash, email: consumed.email };
    await assertResetAddressIsTheirs(tx, environment.id, reset, user);
    // The emailed code proved the mailbox; the new password is not a proof of its own.
    const proof = { methods: ["email_code"], factors: await readUserFactors(tx, user.id) } satisfies Proof;
    // With a second factor (or its enrollment) owed, nothing changes yet: the reset waits in
    // the challenge, and the old password and sessions keep working until it is answered.
    // Whoever holds only the mailbox can then neither set a password nor sign the owner out.
    const owed = await owedFactor(tx, environment, user, proof, reset);
    if (owed) return owed;
    return establishSession(tx, environment, await applyPasswordReset(tx, environment, user, reset, context), proof, context);
  });
  if (!opened) {
    await recordFailedAttempt(db, row ?? NO_CODE);
    throw invalidCode();
  }
  await refundEmailCodeGuess(db, environment, "password_reset", input.email);
  return opened;
}
