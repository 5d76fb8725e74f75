import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userIdentities } from "@/db/schema";
import { recordEvent, type RequestActor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ProviderProfile } from "../oauth/profile";
import { getLiveUserOrThrow } from "../users/get-user";
import type { UserRow } from "../users/serialize";
import { findIdentity } from "./find-identity";
import { sendIdentityNotice } from "./identity-notices";

/** The display data kept from a provider profile (the subject and email have their own columns). */
function profileData(profile: ProviderProfile) {
  return { name: profile.name, firstName: profile.firstName, lastName: profile.lastName, picture: profile.picture, username: profile.username };
}

/**
 * Connects a provider account to `user`, in the caller's transaction: the identity
 * row, its `identity.linked` event and the "account connected" notice to the
 * primary address commit or vanish together. The user's row is locked and read
 * again first: a user of another environment is refused (403), and one deleted
 * meanwhile (404) cannot take a provider account with it that deletion would no
 * longer free; a disconnection, which counts what is left, waits for the link.
 * The insert leaves an existing (provider, subject) alone, so of two concurrent
 * links of one provider account only one can win; the other finds the winner's row. Linking the same account to
 * the same user again changes nothing and answers its id; one that already signs
 * in as another user is refused (409 identity_already_linked) and never moved.
 */
export async function linkIdentity(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  input: { providerId: string; profile: ProviderProfile },
  actor: RequestActor,
): Promise<{ id: string }> {
  const { providerId, profile } = input;
  const owner = await getLiveUserOrThrow(db, environment.id, user.id, { forUpdate: true });
  const [inserted] = await db
    .insert(userIdentities)
    .values({
      environmentId: environment.id,
      userId: owner.id,
      providerId,
      subject: profile.subject,
      email: profile.email,
      emailVerified: profile.emailVerified,
      profile: profileData(profile),
    })
    .onConflictDoNothing({ target: [userIdentities.environmentId, userIdentities.providerId, userIdentities.subject] })
    .returning({ id: userIdentities.id });
  if (!inserted) {
    const existing = await findIdentity(db, environment.id, providerId, profile.subject);
    if (existing?.userId === owner.id) return { id: existing.id };
    throw new AppError("identity_already_linked", "This provider account is already connected to another user.");
  }
  await recordEvent(db, {
    environmentId: environment.id,
    type: "identity.linked",
    actor,
    subjectId: owner.id,
    data: { identityId: inserted.id, providerId },
  });
  await sendIdentityNotice(db, environment, owner, "account_connected", providerId);
  return inserted;
}

/**
 * A sign-in through the identity: what the provider asserts now (email, its
 * verification, display data) replaces what it asserted before, and the time is
 * kept for the account page and the Server API. The update also holds the
 * identity's row for the sign-in's transaction: a removal meanwhile either waits
 * for the session and then revokes it, or has committed and the identity is gone,
 * and then no session may open through it (oauth_failed).
 */
export async function recordIdentitySignIn(db: Database, identityId: string, profile: ProviderProfile): Promise<void> {
  const [updated] = await db
    .update(userIdentities)
    .set({ email: profile.email, emailVerified: profile.emailVerified, profile: profileData(profile), lastSignInAt: sql`now()` })
    .where(and(eq(userIdentities.id, identityId), eq(userIdentities.subject, profile.subject)))
    .returning({ id: userIdentities.id });
  if (!updated) throw new AppError("oauth_failed", "This connected account was removed during the sign-in.");
}
