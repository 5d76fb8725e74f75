import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import { randomToken, sha256 } from "../crypto/tokens";
import type { EnvironmentContext } from "../environments/context";
import type { SessionRow } from "./serialize";

export interface NewSession {
  /** The row as it will be stored: every value decided here, so no RETURNING is needed. */
  row: SessionRow;
  /** The clear token: it exists only here and in the cookie; the database keeps its SHA-256. */
  token: string;
}

/** A new session's values: random token, lifetime from the environment's settings. */
export function newSession(
  environment: EnvironmentContext,
  userId: string,
  client: { userAgent?: string | null; ipAddress?: string | null } = {},
): NewSession {
  const token = randomToken(32);
  const now = new Date();
  return {
    token,
    row: {
      id: randomUUID(),
      environmentId: environment.id,
      userId,
      tokenHash: sha256(token),
      status: "active",
      createdAt: now,
      lastActiveAt: now,
      lastVerifiedAt: now,
      expiresAt: new Date(now.getTime() + environment.settings.sessions.lifetimeSeconds * 1000),
      revokedAt: null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ipAddress: client.ipAddress ?? null,
    },
  };
}

/** Opens a session and returns its token (see newSession). */
export async function createSession(
  db: Database,
  environment: EnvironmentContext,
  userId: string,
  client: { userAgent?: string | null; ipAddress?: string | null } = {},
): Promise<{ session: SessionRow; token: string }> {
  const { row, token } = newSession(environment, userId, client);
  await db.insert(sessions).values(row);
  return { session: row, token };
}
