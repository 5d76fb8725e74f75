import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { cancelLiveCodes, consumeCode, findLiveCode, invalidCode, issueCode } from "../auth/one-time-codes";
import { hashPassword } from "../auth/password-hasher";
import { assertPasswordAllowed } from "../auth/password-policy";
import { clearSignInFailures } from "../auth/sign-in";
import { publicUrl } from "../config/runtime";
import type { RequestContext } from "../operation/request-context";
import { enforceRateLimit } from "../rate-limit/enforce";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import { generationOf, issuedAtCurrentGeneration } from "../sessions/sign-in-generation";
import { internalEnvironment } from "./internal-environment";
import { operatorOfUser } from "./operators";

/** A one-time sign-in link lives a day (issue 17), long enough to reach a colleague by chat or mail. */
export const SIGN_IN_LINK_LIFETIME_MINUTES = 24 * 60;

const PURPOSE = "operator_sign_in_link";

export interface SignInLink {
  url: string;
  expiresAt: Date;
}

/** The dashboard's URL on PUBLIC_URL, where operators sign in. */
export function dashboardUrl(path = "/dashboard"): string {
  return `${publicUrl()}${path}`;
}

/**
 * Issues a one-time link to /dashboard/set-password, where the operator chooses a
 * password and is signed in. The token is stored hashed like every one-time secret
 * (lib/auth/one-time-codes.ts); an older live link of the same operator dies, so only
 * the newest works. It is bound to the user's sign-in generation: removing the
 * operator, or any revocation of all their sessions, kills it.
 */
export async function issueOperatorSignInLink(
  db: Database,
  operator: { userId: string; email: string },
  actor: Actor,
): Promise<SignInLink> {
  const environment = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, operator.userId)).limit(1);
    if (!user || user.environmentId !== environment.id) throw new Error("not a user of the internal environment");
    await cancelLiveCodes(tx, environment.id, PURPOSE, operator.email);
    const { token } = await issueCode(tx, {
      environmentId: environment.id,
      purpose: PURPOSE,
      email: operator.email,
      userId: operator.userId,
      payload: generationOf(user),
      lifetimeMinutes: SIGN_IN_LINK_LIFETIME_MINUTES,
      withCode: false,
    });
    await recordEvent(tx, { environmentId: environment.id, type: "operator.sign_in_link_issued", actor, subjectId: operator.userId, data: {} });
    const url = new URL(dashboardUrl("/dashboard/set-password"));
    url.searchParams.set("token", token);
    return { url: url.toString(), expiresAt: new Date(Date.now() + SIGN_IN_LINK_LIFETIME_MINUTES * 60_000) };
  });
}

/**
 * Whom a live link is for, so the set-password page can greet them (and pre-fill the
 * address for the password manager); null for a wrong, used or expired link. Reading
 * consumes nothing: a mail scanner following the link cannot spend it.
 */
export async function describeSignInLink(db: Database, token: string): Promise<{ email: string } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const environment = await internalEnvironment(db);
  const row = await findLiveCode(db, environment.id, PURPOSE, token);
  return row ? { email: row.email } : null;
}

/**
 * Spends a sign-in link on a new password (the internal environment's policy). The
 * policy check and the argon2 hash come first, so a refused password leaves the link
 * usable; the link is then consumed with one conditional UPDATE, so of any number of
 * concurrent posts exactly one wins (the others: 400 invalid_code). Every earlier
 * session of the operator ends, as after a password reset, and their failed sign-ins
 * are forgiven. Returns the address to sign in with.
 */
export async function setOperatorPassword(
  db: Database,
  input: { token: string; password: string },
  context: RequestContext,
): Promise<{ email: string }> {
  const environment = await internalEnvironment(db);
  // Tokens are 256-bit: the limit only keeps a flood of posts from costing an argon2 hash each.
  await enforceRateLimit(db, environment, "codeAttempts", context);
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.password, "password");
  const passwordHash = await hashPassword(input.password);
  const row = /^[A-Za-z0-9_-]{20,100}$/.test(input.token) ? await findLiveCode(db, environment.id, PURPOSE, input.token) : null;
  if (!row) throw invalidCode();
  return db.transaction(async (tx) => {
    const consumed = await consumeCode(tx, row, null);
    if (!consumed?.userId) throw invalidCode();
    const [user] = await tx.select().from(users).where(eq(users.id, consumed.userId)).for("update");
    // Thrown, not returned: the rollback leaves the link as it was.
    if (!user?.email || user.status !== "active" || !issuedAtCurrentGeneration(consumed.payload, user)) throw invalidCode();
    if (!(await operatorOfUser(tx, user.id))) throw invalidCode();
    const actor = { type: "user", id: user.id, requestId: context.requestId } as const;
    const revokedSessions = await revokeAllUserSessions(tx, { environmentId: environment.id, userId: user.id }, actor, "password_reset");
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await recordEvent(tx, { environmentId: environment.id, type: "user.password_set", actor, subjectId: user.id, data: { revokedSessions } });
    await clearSignInFailures(tx, environment.id, user.email);
    return { email: user.email };
  });
}
