import { and, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { emailAddresses, users } from "@/db/schema";
import { eventInsert } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { enforceRateLimit, rateLimited } from "../rate-limit/enforce";
import type { UserRow } from "../users/serialize";
import { clientIp } from "../http/client-ip";
import { requestIdFor } from "../http/request-id";
import { newSession } from "../sessions/create-session";
import { sessionResponse, type EstablishedSession } from "./establish-session";
import { hashPassword, verifyPassword } from "./password-hasher";

/** Longest wait a flood of failures can impose on an account: throttled, never locked out. */
const MAX_THROTTLE_SECONDS = 15 * 60;

let dummyHash: Promise<string> | undefined;

/** Verified against when the email is unknown, so every failure costs one argon2 verify. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
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
  const byEmail = preparedStatement(db, "sign_in_user_by_email", (d) =>
    d
      .select({ user: users })
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
  return row?.user ?? null;
}

/** Seconds the account must still wait: doubles with each failure past the threshold, capped. */
function throttleSeconds(user: UserRow, threshold: number): number {
  const excess = user.failedSignInCount - threshold;
  if (excess < 0 || !user.lastFailedSignInAt) return 0;
  const delay = Math.min(MAX_THROTTLE_SECONDS, 2 ** Math.min(excess, 20));
  const waited = (Date.now() - user.lastFailedSignInAt.getTime()) / 1000;
  return Math.max(0, Math.ceil(delay - waited));
}

/** No user has the nil UUID, so an unknown email runs the very same statement and matches nothing. */
const NO_USER = "00000000-0000-0000-0000-000000000000";

/**
 * Counts a failed sign-in. Unknown emails run the same UPDATE against no row, so
 * the two failures cost the same time and cannot be told apart.
 */
async function recordFailedSignIn(db: Database, userId: string | null): Promise<void> {
  await db
    .update(users)
    .set({ failedSignInCount: sql`${users.failedSignInCount} + 1`, lastFailedSignInAt: new Date() })
    .where(eq(users.id, userId ?? NO_USER));
}

/**
 * Email + password sign-in (CONTRACT §3). Unknown email and wrong password give the
 * same 401 after the same work; a banned user learns so only with the right password.
 */
export async function signIn(
  db: Database,
  environment: EnvironmentContext,
  input: { email: string; password: string },
  request: Request,
  options: { isNative: boolean },
): Promise<EstablishedSession> {
  await enforceRateLimit(db, environment, "signIn", request, input.email);
  const user = await findUserByEmail(db, environment.id, input.email);
  if (user) {
    const wait = throttleSeconds(user, environment.settings.rateLimits.failedSignInThreshold);
    if (wait > 0) throw rateLimited(wait);
  }
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password).catch(() => false);
  if (!user || !user.passwordHash || !passwordOk) {
    await recordFailedSignIn(db, user?.id ?? null);
    throw invalidCredentials();
  }
  if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");

  const { row: session, token } = newSession(environment, user.id, {
    userAgent: request.headers.get("user-agent"),
    ipAddress: clientIp(request),
  });
  const actor = { type: "user", id: user.id, requestId: requestIdFor(request) } as const;
  const audit = eventInsert({ environmentId: environment.id, type: "session.created", actor, subjectId: user.id, data: { sessionId: session.id } });
  // One statement opens the session, writes its audit row and resets the failure
  // count: atomic without an explicit transaction, and one round trip instead of five.
  await db.execute(sql`
    with new_session as (
      insert into sessions (id, environment_id, user_id, token_hash, status, created_at, last_active_at, last_verified_at,
                            expires_at, user_agent, ip_address)
      values (${session.id}, ${session.environmentId}, ${session.userId}, ${session.tokenHash}, 'active',
              ${session.createdAt.toISOString()}::timestamptz, ${session.lastActiveAt.toISOString()}::timestamptz,
              ${session.lastVerifiedAt.toISOString()}::timestamptz, ${session.expiresAt.toISOString()}::timestamptz,
              ${session.userAgent}, ${session.ipAddress})
      returning id
    ), audit as (${audit})
    update users set failed_sign_in_count = 0, last_failed_sign_in_at = null, last_sign_in_at = now()
    where id = ${user.id}`);
  const opened = { session, token, user };
  return sessionResponse(db, environment, opened, request, options);
}
