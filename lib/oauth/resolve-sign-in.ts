import { and, eq, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, userIdentities, users } from "@/db/schema";
import { recordEvent, type RequestActor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { findIdentity } from "../identities/find-identity";
import { linkIdentity, recordIdentitySignIn } from "../identities/link-identity";
import { recordLegalAcceptance } from "../legal/legal-acceptance";
import type { UserRow } from "../users/serialize";
import type { ProviderProfile } from "./profile";

/**
 * Who a provider account signs in as (issue 9 §3, "no takeover"):
 * - a known identity signs in as its user;
 * - an unknown one whose address belongs to an account is linked to it only when
 *   the provider asserts the address verified AND the account's address is
 *   verified: either one unproven and anyone could claim the other's account, so
 *   the person is told to sign in and connect it from the account page. The
 *   provider's address is normalized like ours, and one that only folds into an
 *   account's (`\u212Aen@x.com` → `ken@x.com`) never counts as verified
 *   (lib/oauth/profile.ts `providerEmail`), so it ends here too;
 * - otherwise a new user, with the provider's address only when it is verified;
 *   when the environment wants legal consent first, the caller defers the sign-up.
 * A banned user is refused in every branch.
 */
export type SignInResolution =
  | { kind: "user"; user: UserRow; created: boolean }
  | { kind: "consent_required" };

export function accountExists(): AppError {
  return new AppError(
    "account_exists",
    "An account with this email address exists; sign in to it and connect this provider from the account page.",
  );
}

function assertNotBanned(user: UserRow): void {
  if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
}

/** The live (not deleted) user of this environment who holds the address, with whether that address is verified. */
async function accountByEmail(db: Database, environmentId: string, email: string): Promise<{ user: UserRow; verified: boolean } | null> {
  const rows = await db
    .select({ user: users, verifiedAt: emailAddresses.verifiedAt })
    .from(emailAddresses)
    .innerJoin(users, eq(users.id, emailAddresses.userId))
    .where(and(eq(emailAddresses.environmentId, environmentId), eq(emailAddresses.email, email), ne(users.status, "deleted")));
  // An address pending on someone's account belongs to nobody (lib/users/create-user.ts):
  // it only counts when it is that user's primary address, or once verified.
  const owned = rows.filter((row) => row.verifiedAt !== null || row.user.email === email);
  const verified = owned.find((row) => row.verifiedAt !== null);
  const row = verified ?? owned[0];
  return row ? { user: row.user, verified: row.verifiedAt !== null } : null;
}

/**
 * The identity's user, unless it has been deleted (its identity rows go with it; this
 * guards the gap), locked: the user's row before the identity's, in the order an
 * identity's removal takes them, so a sign-in and a removal queue instead of deadlocking.
 */
async function liveUser(db: Database, environmentId: string, userId: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.environmentId, environmentId), ne(users.status, "deleted")))
    .limit(1)
    .for("update");
  return row ?? null;
}

/**
 * Resolves a sign-in with a provider account: run it in the transaction that also
 * opens the session, so a link or a new user exists only with it.
 */
export async function resolveSignIn(
  db: Database,
  environment: EnvironmentContext,
  input: { providerId: string; profile: ProviderProfile },
  context: RequestContext,
): Promise<SignInResolution> {
  const { providerId, profile } = input;
  const identity = await findIdentity(db, environment.id, providerId, profile.subject);
  if (identity) {
    const user = await liveUser(db, environment.id, identity.userId);
    if (!user) throw new AppError("oauth_failed", "The account of this sign-in no longer exists.");
    assertNotBanned(user);
    await recordIdentitySignIn(db, identity.id, profile);
    return { kind: "user", user, created: false };
  }

  if (profile.email) {
    const account = await accountByEmail(db, environment.id, profile.email);
    if (account) {
      if (!profile.emailVerified || !account.verified) throw accountExists();
      // The row as of its lock: the ban check and the session (its sign-in generation) need it current.
      const user = await liveUser(db, environment.id, account.user.id);
      if (!user) throw new AppError("oauth_failed", "The account of this sign-in no longer exists.");
      assertNotBanned(user);
      const actor: RequestActor = { type: "user", id: user.id, requestId: context.requestId };
      await linkIdentity(db, environment, user, { providerId, profile }, actor);
      return { kind: "user", user, created: false };
    }
  }

  if (!environment.settings.signUp.enabled) throw new AppError("forbidden", "Sign-up is closed for this application.");
  if (environment.settings.legal.requireConsent) return { kind: "consent_required" };
  const user = await createOAuthUser(db, environment, { providerId, profile, legalConsentAccepted: false }, context);
  return { kind: "user", user, created: true };
}

/**
 * Creates the user of a provider account together with its identity (and, from a
 * continuation, the legal acceptance), in the caller's transaction. The address is
 * kept only when the provider asserts it verified; an unverified one stays on the
 * identity, never on the account, where it would claim a mailbox nobody proved.
 */
export async function createOAuthUser(
  db: Database,
  environment: EnvironmentContext,
  input: { providerId: string; profile: ProviderProfile; legalConsentAccepted: boolean },
  context: RequestContext,
): Promise<UserRow> {
  const { profile } = input;
  const email = profile.emailVerified ? profile.email : null;
  const now = new Date();
  const [user] = await db
    .insert(users)
    .values({
      environmentId: environment.id,
      email,
      emailVerifiedAt: email ? now : null,
      firstName: profile.firstName,
      lastName: profile.lastName,
      lastSignInAt: now,
    })
    .returning();
  if (!user) throw new Error("user insert returned no row");
  if (email) await db.insert(emailAddresses).values({ environmentId: environment.id, userId: user.id, email, verifiedAt: now });
  await db.insert(userIdentities).values({
    environmentId: environment.id,
    userId: user.id,
    providerId: input.providerId,
    subject: profile.subject,
    email: profile.email,
    emailVerified: profile.emailVerified,
    profile: { name: profile.name, firstName: profile.firstName, lastName: profile.lastName, picture: profile.picture, username: profile.username },
    lastSignInAt: now,
  });
  if (input.legalConsentAccepted) await recordLegalAcceptance(db, environment, user.id, context.ip);
  await recordEvent(db, {
    environmentId: environment.id,
    type: "user.signed_up",
    actor: { type: "user", id: user.id, requestId: context.requestId },
    subjectId: user.id,
  });
  return user;
}
