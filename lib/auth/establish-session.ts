import type { z } from "zod";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { clientIp } from "../http/client-ip";
import { sessionCookies } from "../sessions/cookies";
import { createSession } from "../sessions/create-session";
import { sessionState } from "../sessions/gates";
import type { SessionRow } from "../sessions/serialize";
import { mintAccessToken } from "../tokens/access-token";
import type { UserRow } from "../users/serialize";
import { toClientUser } from "../users/serialize";
import type { sessionEstablishedSchema } from "./schemas";

export interface EstablishedSession {
  body: z.output<typeof sessionEstablishedSchema>;
  /** Set-Cookie values for the route to set. */
  cookies: string[];
}

export interface OpenedSession {
  session: SessionRow;
  /** The clear session token: it exists only here and in the cookie. */
  token: string;
  user: UserRow;
}

/** Opens a session for a user who just proved who they are; call it inside the sign-in transaction. */
export async function openSession(db: Database, environment: EnvironmentContext, user: UserRow, request: Request): Promise<OpenedSession> {
  const { session, token } = await createSession(db, environment, user.id, {
    userAgent: request.headers.get("user-agent"),
    ipAddress: clientIp(request),
  });
  return { session, token, user };
}

/**
 * The response every sign-in path shares (CONTRACT §3), built after the transaction
 * committed so no lock is held while the token is signed. A PENDING session gets
 * no access token.
 */
export async function sessionResponse(
  db: Database,
  environment: EnvironmentContext,
  opened: OpenedSession,
  request: Request,
  options: { isNative: boolean },
): Promise<EstablishedSession> {
  const { session, token, user } = opened;
  const state = await sessionState(db, environment, user, session.id);
  const access =
    state.status === "ACTIVE"
      ? await mintAccessToken(db, environment, session, { origin: request.headers.get("origin") })
      : null;
  return {
    body: {
      accessToken: access?.token ?? null,
      expiresAt: access?.expiresAt ?? null,
      session: state,
      user: toClientUser(user),
      ...(options.isNative ? { sessionToken: token } : {}),
    },
    cookies: sessionCookies(request, token, session.expiresAt, session.lastActiveAt),
  };
}

/** Hands an established session's cookies to the response and returns its body. */
export function respondWithSession(responseHeaders: Headers, established: EstablishedSession) {
  for (const cookie of established.cookies) responseHeaders.append("set-cookie", cookie);
  return established.body;
}
