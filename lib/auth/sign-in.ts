import { and, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { emailAddresses, users } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { enforceRateLimit, rateLimited } from "../rate-limit/enforce";
import { endFailureStreak, extendFailureStreak, readFailureStreak, type FailureStreak } from "../rate-limit/failure-streak";
import { userFactorColumns, type UserFactors } from "../mfa/user-factors";
import type { UserRow } from "../users/serialize";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type Establishment } from "../sessions/establish-session";
import { hashPassword, isCurrentDigest, verifyPassword, type PasswordCheck } from "./password-hasher";

/** Longest wait a flood of failures can impose on an account: throttled, never locked out. */
const MAX_THROTTLE_SECONDS = 15 * 60;

let dummyHash: Promise<string> | undefined;

/** Verified against when the email is unknown, so every failure costs one argon2 verify. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

/**
 * Checks a sign-in's password so that the time it takes says as little as today about
 * whether the account exists: an unknown email (or a user without a password) costs
 * one argon2id verify of the dummy; an imported digest in another scheme is verified
 * alongside the dummy, so a fast one (sha256, pbkdf2, scrypt) takes no less than an
 * unknown email. A slower one (bcrypt at a high cost) still takes longer, until the
 * user's first sign-in upgrades it.
 */
async function checkSignInPassword(digest: string | null | undefined, password: string): Promise<PasswordCheck> {
  const dummy = await dummyPasswordHash();
  if (!digest) {
    await verifyPassword(dummy, password);
    return { ok: false, needsRehash: false };
  }
  if (isCurrentDigest(digest)) return verifyPassword(digest, password);
  const [check] = await Promise.all([verifyPassword(digest, password), verifyPassword(dummy, password)]);
  return check;
}

/**
 * Replaces a right password's imported (or outdated) digest with argon2id, in the
 * sign-in's own request. Conditional on the digest read: a password changed meanwhile wins.
 */
async function upgradePasswordDigest(db: Database, userId: string, oldDigest: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.update(users).set({ passwordHash }).where(and(eq(users.id, userId), eq(users.passwordHash, oldDigest)));
}

export function invalidCredentials(): AppError {
  return new AppError("invalid_credentials", "The email or password is wrong.");
}

/**
 * The active or banned user who signs in with this address (deleted users are not
 * found). An added address counts only once verified: otherwise anyone could attach
 * someone else's email to their own account and sign in with it.
 */
export async function findUserByEmail(db: Database, environmentId: string, email: string): Promise<UserRow | null> {
  return (await findSignInAccount(db, environmentId, email))?.user ?? null;
}

/**
 * `findUserByEmail` with the user's second factors, in the same statement: the
 * password sign-in needs both, and a round trip saved here is one saved on every
 * sign-in.
 */
async function findSignInAccount(db: Database, environmentId: string, email: string): Promise<{ user: UserRow; factors: UserFactors } | null> {
  const byEmail = preparedStatement(db, "sign_in_user_by_email", (d) =>
    d
      .select({ user: users, factors: userFactorColumns(sql`${users.id}`) })
      .from(emailAddresses)
      .innerJoin(users, eq(users.id, emailAddresses.userId))
      .where(
        and(
          eq(emailAddresses.environmentId, sql.placeholder("environmentId")),
          eq(emailAddresses.email, sql.placeholder("email")),
          ne(users.status, "deleted"),
          or(isNotNull(emailAddresses.verifiedAt), eq(users.email, emailAddresses.email)),
        ),
      )
      .limit(1)
      .prepare("sign_in_user_by_email"),
  );
  const [row] = await byEmail.execute({ environmentId, email });
  return row ?? null;
}

/**
 * Where consecutive failed sign-ins are counted: per address, whether or not it has
 * an account. A throttle kept on the account would answer 429 only for addresses
 * that exist, which tells an attacker which ones do.
 */
function signInFailuresKey(environmentId: string, email: string): string {
  return `${environmentId}:signInFailures:id:${email.toLowerCase()}`;
}

/** Forgets an address's failed sign-ins, after a password reset proved its owner. */
export async function clearSignInFailures(db: Database, environmentId: string, email: string): Promise<void> {
  await endFailureStreak(db, signInFailuresKey(environmentId, email));
}

/** Seconds the address must still wait: doubles with each failure past the threshold, capped. */
function throttleSeconds(streak: FailureStreak | null, threshold: number): number {
  const excess = (streak?.failures ?? 0) - threshold;
  if (!streak || excess < 0) return 0;
  const delay = Math.min(MAX_THROTTLE_SECONDS, 2 ** Math.min(excess, 20));
  const waited = (Date.now() - streak.lastFailureAt.getTime()) / 1000;
  return Math.max(0, Math.ceil(delay - waited));
}

/**
 * The account's password throttle, shared by sign-in and reverification so that a
 * stolen session cannot guess the password faster than the sign-in page allows.
 * Throws 429 while the account must wait; returns the current streak (null when
 * there is none) for `passwordSucceeded`.
 */
export async function assertPasswordNotThrottled(db: Database, environment: EnvironmentContext, identifier: string): Promise<FailureStreak | null> {
  const streak = await readFailureStreak(db, signInFailuresKey(environment.id, identifier));
  const wait = throttleSeconds(streak, environment.settings.rateLimits.failedSignInThreshold);
  if (wait > 0) throw rateLimited(wait);
  return streak;
}

/**
 * The identifier an account's own failures count under once the user is known
 * (reverification, second-factor codes): its primary address, as sign-in keys it.
 */
export function accountThrottleIdentifier(user: { id: string; email: string | null }): string {
  return user.email || `user:${user.id}`;
}

/** Counts a failed proof (a password or a second-factor code) toward the account's throttle. */
export async function countSignInFailure(db: Database, environment: EnvironmentContext, identifier: string): Promise<void> {
  await extendFailureStreak(db, signInFailuresKey(environment.id, identifier));
}

async function passwordFailed(db: Database, environment: EnvironmentContext, identifier: string): Promise<AppError> {
  await countSignInFailure(db, environment, identifier);
  return invalidCredentials();
}

/** A streak ends with a success; skipped when there is none, to keep the common sign-in at one write. */
export async function passwordSucceeded(db: Database, environment: EnvironmentContext, identifier: string, streak: FailureStreak | null) {
  if (streak) await endFailureStreak(db, signInFailuresKey(environment.id, identifier));
}

/**
 * Judges a signed-in user's proof of their own credentials (`prove`: the password,
 * with a code where one is owed) under the account's password throttle, keyed as
 * sign-in keys it: while the account must wait, 429 before anything is checked, the
 * right password included; a wrong proof extends the streak (401 invalid_credentials);
 * a right one ends it. Reverification and the password change both prove through
 * here, so guesses there and at the sign-in page add up, and a stolen session is no
 * faster a password oracle than the sign-in page.
 */
export async function proveOwnCredentials(
  db: Database,
  environment: EnvironmentContext,
  user: { id: string; email: string | null },
  prove: () => Promise<boolean>,
): Promise<void> {
  const identifier = accountThrottleIdentifier(user);
  const streak = await assertPasswordNotThrottled(db, environment, identifier);
  if (!(await prove())) throw await passwordFailed(db, environment, identifier);
  await passwordSucceeded(db, environment, identifier, streak);
}

/**
 * Email + password sign-in (CONTRACT §3). Unknown email and wrong password give the
 * same 401 after the same work; a banned user learns so only with the right password.
 * A right password that still owes a second factor does not end the failure streak:
 * wrong codes at /auth/mfa/verify extend it, and a fresh sign-in with the password
 * must not wipe them, or each new mfaToken would bring five more free guesses.
 */
export async function signIn(
  db: Database,
  environment: EnvironmentContext,
  input: { email: string; password: string },
  context: RequestContext,
): Promise<Establishment> {
  await enforceRateLimit(db, environment, "signIn", context, input.email);
  // Decided before the account is looked up, so it cannot depend on whether there is one.
  const streak = await assertPasswordNotThrottled(db, environment, input.email);
  const account = await findSignInAccount(db, environment.id, input.email);
  const user = account?.user;
  const check = await checkSignInPassword(user?.passwordHash, input.password);
  if (!user || !user.passwordHash || !check.ok) throw await passwordFailed(db, environment, input.email);
  if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
  // Only sign-in upgrades a digest: it is the one place the right password is at hand and proven.
  if (check.needsRehash) await upgradePasswordDigest(db, user.id, user.passwordHash, input.password);
  const established = await establishSession(db, environment, user, { methods: ["pwd"], factors: account.factors }, context);
  if (established.kind !== "second_factor_required") await passwordSucceeded(db, environment, input.email, streak);
  return established;
}
