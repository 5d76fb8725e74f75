import type { OnBehalfOf, RequestActor } from "../audit/record-event";
import { AppError } from "../errors";
import type { UserRow } from "../users/serialize";
import type { SessionRow } from "./serialize";

/*
 * What a session opened by impersonation (POST /_svc/auth/session/impersonate) is:
 * the user's session, acted in by someone else. The user stays the subject of
 * everything (`sub` of its tokens, the actor of its events); the impersonator is
 * named beside them, in `act` (RFC 8693 §4.1) and in every event's `on_behalf_of_*`.
 * Its limits live elsewhere, each in the one place of its concern: the lifetime in
 * establishSession, the refused operations in authorizeSession, the lost "recent
 * sign-in" in isRecentlyVerified.
 */

/** Who acts as the user: the kind of credential that minted the token, and the `actorId` it named. */
export type Impersonator = OnBehalfOf;

/**
 * An impersonation session ends after an hour at most, whatever the environment's
 * session lifetime: it is a support tool, not a way to live in someone's account.
 */
export const IMPERSONATION_MAX_SECONDS = 3600;

type ImpersonatorColumns = Pick<SessionRow, "impersonatorType" | "impersonatorId">;

/** The session's impersonator, or null for the user's own sign-in. */
export function impersonatorOf(session: ImpersonatorColumns): Impersonator | null {
  return session.impersonatorType && session.impersonatorId ? { type: session.impersonatorType, id: session.impersonatorId } : null;
}

/** `{sub}` of whoever acts in the session: the `act` claim of its tokens and the boot probe's `actor`; null when the user acts. */
export function actorClaim(session: ImpersonatorColumns): { sub: string } | null {
  const impersonator = impersonatorOf(session);
  return impersonator ? { sub: impersonator.id } : null;
}

/**
 * The actor of a change made through a session: its user, with the impersonator as
 * `onBehalfOf` when someone else acts in it. Every actor of a session caller is
 * built here, so no event written during an impersonation can leave it out.
 */
export function sessionActor(current: { session: ImpersonatorColumns; user: Pick<UserRow, "id"> }, requestId: string): RequestActor {
  const impersonator = impersonatorOf(current.session);
  return { type: "user", id: current.user.id, requestId, ...(impersonator ? { onBehalfOf: impersonator } : {}) };
}

/** 403 impersonation_forbidden: what only the user may do, asked through an impersonation session. */
export function impersonationForbidden(): AppError {
  return new AppError(
    "impersonation_forbidden",
    "An impersonation session cannot do this: credentials, email addresses, second factors, passkeys, connected accounts, other sessions, deletion, data exports, consent and reverification are the user's own.",
  );
}
