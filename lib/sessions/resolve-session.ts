import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { sessions, users } from "@/db/schema";
import { sha256 } from "../crypto/tokens";
import type { EnvironmentContext } from "../environments/context";
import type { UserRow } from "../users/serialize";
import { sessionCookieToken } from "./cookies";
import type { SessionRow } from "./serialize";

/** lastActiveAt is written at most once a minute, so a busy session costs no write per request. */
const TOUCH_INTERVAL_SECONDS = 60;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface ActiveSession {
  session: SessionRow;
  user: UserRow;
  /** The opaque token the caller presented (cookie or native bearer). */
  token: string;
  /**
   * How the token came: a `cookie`, which the browser attaches to a request whichever
   * page started it (so a flow a page may start checks where the request came from),
   * or a `bearer` header, which only the client's own code sends.
   */
  presentedAs: "cookie" | "bearer";
}

/** A satellite's primary session (GET /_svc/auth/sync), joined to judge it by the same rules. */
const primarySessions = alias(sessions, "primary_session");

/**
 * What makes a session live, beside the key it is looked up by: active, not expired,
 * not idle, its user active, and a satellite's primary live by the same rules.
 */
function liveSessionConditions() {
  return and(
    eq(sessions.environmentId, sql.placeholder("environmentId")),
    eq(sessions.status, "active"),
    gt(sessions.expiresAt, sql.placeholder("now")),
    gt(sessions.lastActiveAt, sql.placeholder("activeSince")),
    eq(users.status, "active"),
    // A satellite lives only while its primary does: revoked ones are cascaded
    // (lib/sessions/revoke-sessions.ts), but an idle or expired primary is never
    // revoked, only judged so here; the satellite's own activity does not keep it alive.
    or(
      isNull(sessions.parentSessionId),
      and(
        eq(primarySessions.status, "active"),
        gt(primarySessions.expiresAt, sql.placeholder("now")),
        gt(primarySessions.lastActiveAt, sql.placeholder("activeSince")),
      ),
    ),
  );
}

function liveSessionQuery(db: Database, by: "token" | "id") {
  const name = by === "token" ? "live_session_by_token" : "live_session_by_id";
  return preparedStatement(db, name, (d) =>
    d
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(primarySessions, eq(primarySessions.id, sessions.parentSessionId))
      .where(
        and(
          by === "token" ? eq(sessions.tokenHash, sql.placeholder("key")) : eq(sessions.id, sql.placeholder("key")),
          liveSessionConditions(),
        ),
      )
      .limit(1)
      .prepare(name),
  );
}

/**
 * The session token of a request: `Authorization: Bearer` from native clients, else
 * the cookie that counts (sessionCookieToken: over http the only one, on https the one
 * its `__Host-` companion names, which a sibling subdomain cannot plant).
 */
export function presentedSessionToken(request: Request): string | null {
  const bearer = bearerToken(request);
  if (bearer) return isSessionToken(bearer) ? bearer : null;
  const cookie = sessionCookieToken(request);
  return cookie && isSessionToken(cookie) ? cookie : null;
}

/** `Authorization: Bearer <token>`: a native client's session; when sent, the cookie does not count. */
function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
}

/** The shape of an opaque session token (43 base64url characters). */
export function isSessionToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/**
 * The moment before which a session counts as idle: now less the environment's
 * inactivity limit, or the epoch when it has none (so one condition serves both).
 */
export function idleBound(environment: EnvironmentContext, now = new Date()): Date {
  const idleLimit = environment.settings.sessions.inactivitySeconds;
  return idleLimit ? new Date(now.getTime() - idleLimit * 1000) : new Date(0);
}

/**
 * The live session behind a request, or null. A session belongs to one environment:
 * presented to another it is ignored. Revoked, expired and idle sessions, those of
 * users who are no longer active, and satellites whose primary session is not live
 * by the same rules, are never returned.
 */
export async function findActiveSession(
  db: Database,
  environment: EnvironmentContext,
  request: Request,
): Promise<ActiveSession | null> {
  const token = presentedSessionToken(request);
  if (!token) return null;
  const row = await findLiveSession(db, environment, "token", sha256(token));
  return row ? { ...row, token, presentedAs: bearerToken(request) === undefined ? "cookie" : "bearer" } : null;
}

/**
 * A live session by its id, judged and touched by the same rules as findActiveSession,
 * for a caller that holds the id under its own integrity protection: the dashboard,
 * whose next-auth cookie (encrypted and authenticated) names the operator's session
 * in the internal environment.
 */
export async function findLiveSessionById(
  db: Database,
  environment: EnvironmentContext,
  sessionId: string,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  return findLiveSession(db, environment, "id", sessionId);
}

async function findLiveSession(db: Database, environment: EnvironmentContext, by: "token" | "id", key: string) {
  const now = new Date();
  const activeSince = idleBound(environment, now);
  const [row] = await liveSessionQuery(db, by).execute({
    key,
    environmentId: environment.id,
    now: now.toISOString(),
    activeSince: activeSince.toISOString(),
  });
  if (!row) return null;
  if (now.getTime() - row.session.lastActiveAt.getTime() > TOUCH_INTERVAL_SECONDS * 1000) {
    await db
      .update(sessions)
      .set({ lastActiveAt: sql`now()` })
      .where(and(eq(sessions.id, row.session.id), lt(sessions.lastActiveAt, new Date(now.getTime() - TOUCH_INTERVAL_SECONDS * 1000))));
  }
  return row;
}
