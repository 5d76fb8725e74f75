import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { oauthProviders, userIdentities } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ActiveSession } from "../sessions/resolve-session";
import { lockOAuthSignInsInFlight, revokeOAuthSignIns } from "../sessions/revoke-sessions";
import { getLiveUserOrThrow, getUserOrThrow } from "../users/get-user";
import type { ServerUser } from "../users/schemas";
import { toServerUser, type UserRow } from "../users/serialize";
import { readUserSummary } from "../users/user-summary";
import type { IdentityRow } from "./find-identity";
import { sendIdentityNotice } from "./identity-notices";
import { assertAnotherSignInMethod } from "./last-sign-in-method";
import type { IdentityView } from "./schemas";

/**
 * One identity of `owner`, in the owner's environment. Another user's, or one with
 * this id in another environment, answers as if it did not exist.
 */
async function ownIdentityOrThrow(db: Database, owner: Pick<UserRow, "id" | "environmentId">, identityId: string): Promise<IdentityRow> {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.id, identityId), eq(userIdentities.userId, owner.id), eq(userIdentities.environmentId, owner.environmentId)))
    .limit(1);
  if (!row) throw new AppError("resource_not_found", "No connected account with this id.");
  return row;
}

/** A string kept in the identity's profile, when the provider gave one. */
function profileText(profile: Record<string, unknown>, key: string): string | null {
  const value = profile[key];
  return typeof value === "string" ? value : null;
}

/** The signed-in user's connected accounts, oldest first, named as the environment names their providers. */
export async function listMyIdentities(db: Database, current: ActiveSession): Promise<{ items: IdentityView[] }> {
  const rows = await db
    .select({ identity: userIdentities, providerName: sql<string>`coalesce(${oauthProviders.name}, ${userIdentities.providerId})` })
    .from(userIdentities)
    .leftJoin(oauthProviders, and(eq(oauthProviders.environmentId, userIdentities.environmentId), eq(oauthProviders.id, userIdentities.providerId)))
    .where(and(eq(userIdentities.userId, current.user.id), eq(userIdentities.environmentId, current.session.environmentId)))
    .orderBy(asc(userIdentities.createdAt), asc(userIdentities.id));
  return {
    items: rows.map(({ identity, providerName }) => ({
      id: identity.id,
      provider: identity.providerId,
      providerName,
      email: identity.email,
      emailVerified: identity.emailVerified,
      username: profileText(identity.profile, "username"),
      createdAt: identity.createdAt.toISOString(),
      lastSignInAt: identity.lastSignInAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Removes the identity, its `identity.unlinked` event and the "account
 * disconnected" notice in the caller's transaction: the provider account no longer
 * signs in as the user, and a later sign-in with it starts afresh. What it already
 * opened ends too (reason `identity_removed`; a session does not record which
 * provider opened it, so all the user's provider-opened sessions), else a
 * disconnected or compromised provider account would stay signed in;
 * `keepSessionId` spares the caller's own session.
 */
async function removeIdentity(
  db: Database,
  environment: EnvironmentContext,
  owner: UserRow,
  identity: IdentityRow,
  actor: Actor,
  keepSessionId?: string,
) {
  await db.delete(userIdentities).where(eq(userIdentities.id, identity.id));
  await revokeOAuthSignIns(db, { environmentId: environment.id, userIds: [owner.id], exceptSessionId: keepSessionId }, actor, "identity_removed");
  await recordEvent(db, {
    environmentId: environment.id,
    type: "identity.unlinked",
    actor,
    subjectId: owner.id,
    data: { identityId: identity.id, providerId: identity.providerId },
  });
  await sendIdentityNotice(db, environment, owner, "account_disconnected", identity.providerId);
}

/**
 * The signed-in user disconnects one of their accounts, unless it is their last
 * way to sign in (409 last_sign_in_method). Checked under the user's row lock.
 */
export async function unlinkMyIdentity(db: Database, environment: EnvironmentContext, current: ActiveSession, identityId: string, actor: Actor) {
  await db.transaction(async (tx) => {
    await lockOAuthSignInsInFlight(tx, environment.id, [current.user.id]);
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    const identity = await ownIdentityOrThrow(tx, owner, identityId);
    await assertAnotherSignInMethod(tx, owner, identity.id);
    await removeIdentity(tx, environment, owner, identity, actor, current.session.id);
  });
  return { status: "removed" };
}

/**
 * An operator disconnects one of a user's accounts through the Server API. The
 * operator is not held to the last-sign-in-method rule (support may need to cut a
 * compromised provider account off at once); a user left without a way in can
 * still set a password through the reset by email, or be given one (PATCH).
 */
export async function removeUserIdentity(
  db: Database,
  environment: EnvironmentContext,
  userId: string,
  identityId: string,
  actor: Actor,
): Promise<ServerUser> {
  return db.transaction(async (tx) => {
    await lockOAuthSignInsInFlight(tx, environment.id, [userId]);
    const owner = await getUserOrThrow(tx, environment.id, userId, { forUpdate: true });
    const identity = await ownIdentityOrThrow(tx, owner, identityId);
    await removeIdentity(tx, environment, owner, identity, actor);
    return toServerUser(owner, await readUserSummary(tx, owner.id));
  });
}
