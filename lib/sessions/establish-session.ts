import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { eventInsert } from "../audit/record-event";
import type { PendingPasswordReset } from "../auth/apply-password-reset";
import { overtakenSignIn } from "./sign-in-generation";
import { randomToken, sha256 } from "../crypto/tokens";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { mintAccessToken, type MintedToken } from "../tokens/access-token";
import type { UserRow } from "../users/serialize";
import { issueMfaToken } from "../mfa/mfa-tokens";
import { dueSecondFactors, hasAnyFactor, readUserFactors, type UserFactors } from "../mfa/user-factors";
import { sessionState, type SessionState } from "./gates";
import { IMPERSONATION_MAX_SECONDS, impersonatorOf, sessionActor, type Impersonator } from "./impersonator";
import type { SessionRow } from "./serialize";

/**
 * How a user proved who they are (RFC 8176 names where one exists). `email_code`
 * is a code sent to a verified mailbox (sign-up, password reset); `otp` is reserved
 * for an authenticator app's code, a second factor.
 */
export const AUTH_METHODS = ["pwd", "email_code", "otp", "recovery", "webauthn", "oauth", "ticket", "impersonation"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** Methods that count as a second factor on top of a first one (NIST SP 800-63B AAL2). */
const SECOND_FACTOR_METHODS: ReadonlySet<AuthMethod> = new Set(["otp", "recovery", "webauthn"]);

/** A second factor the user can answer with, offered in `second_factor_required`. */
export type SecondFactor = "totp" | "recovery_code" | "passkey";

/** A session that exists: its row, its clear token (only here and in the cookie), its gates. */
export interface SessionGrant {
  session: SessionRow;
  token: string;
  user: UserRow;
  state: SessionState;
  /** Only an ACTIVE session gets an access token. */
  accessToken: MintedToken | null;
}

/**
 * What proving one's identity leads to. Every way into a session (password,
 * sign-up code, reset code, and later passkeys, OAuth, tickets, impersonation)
 * goes through `establishSession` and switches over this union exhaustively, so
 * a new case cannot be forgotten by one of them:
 * - `session`: an ACTIVE session;
 * - `pending_gates`: a PENDING session that may only clear its gates (consent,
 *   email verification) — it gets no access token;
 * - `second_factor_required` / `enrollment_required`: no session yet; the
 *   caller answers with the challenge token (mfaToken), never a cookie.
 */
export type Establishment =
  | { kind: "session"; grant: SessionGrant }
  | { kind: "pending_gates"; grant: SessionGrant }
  | { kind: "second_factor_required"; user: UserRow; mfaToken: string; factors: SecondFactor[] }
  | { kind: "enrollment_required"; user: UserRow; mfaToken: string };

export interface Proof {
  /** The methods proven for this sign-in, first factor first. */
  methods: AuthMethod[];
  /** The user's factors when the caller's lookup already read them (password sign-in); else read here. */
  factors?: UserFactors;
  /**
   * For a satellite session (GET /auth/sync): the live primary session it is handed
   * from, which ends it when it ends. The satellite never outlives it and is no more
   * recently verified than it: a handover is not a fresh proof of identity, so it
   * cannot open the sensitive-operation window that the primary's age has closed.
   */
  parentSession?: Pick<SessionRow, "id" | "expiresAt" | "lastVerifiedAt" | "impersonatorType" | "impersonatorId">;
  /**
   * For an impersonation (methods `["impersonation"]`): who acts as the user. The
   * session records them, lives IMPERSONATION_MAX_SECONDS at most, and its events
   * name them as onBehalfOf. A satellite of an impersonation session inherits its
   * primary's impersonator: a handover to another domain is not a way out of it.
   */
  impersonator?: Impersonator;
}

/**
 * Whether a sign-in with these methods still owes a second factor or its
 * enrollment (CONTRACT §3), and if so its challenge. A proof that already holds a
 * second factor (a passkey sign-in, a redeemed mfaToken) owes nothing, an
 * impersonation is the operator's act, not the user's sign-in, and a satellite
 * continues its primary's sign-in. Costs one query only for the others.
 *
 * establishSession asks it first; a password reset asks it before it applies
 * anything, and when a factor is owed hands it the reset (`passwordReset`) to be
 * held with the challenge: the reset then takes effect only once that challenge
 * is completed (lib/auth/apply-password-reset.ts).
 */
export async function owedFactor(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  proof: Proof,
  passwordReset?: PendingPasswordReset,
): Promise<Establishment | null> {
  if (proof.methods.some((method) => SECOND_FACTOR_METHODS.has(method) || method === "impersonation")) return null;
  // A satellite is its live primary session on another host: the primary has answered
  // what it owed, and a challenge here would open a session that no longer names it.
  if (proof.parentSession) return null;
  const factors = proof.factors ?? (await readUserFactors(db, user.id));
  const due = dueSecondFactors(environment, factors);
  if (due.length > 0) {
    const mfaToken = await issueMfaToken(db, environment, user, { kind: "second_factor", methods: proof.methods, passwordReset });
    return { kind: "second_factor_required", user, mfaToken, factors: due };
  }
  if (environment.settings.mfa.required && !hasAnyFactor(factors)) {
    const mfaToken = await issueMfaToken(db, environment, user, { kind: "enrollment", methods: proof.methods, passwordReset });
    return { kind: "enrollment_required", user, mfaToken };
  }
  return null;
}

export function assuranceLevel(methods: readonly AuthMethod[]): 1 | 2 {
  return methods.length > 1 && methods.some((method) => SECOND_FACTOR_METHODS.has(method)) ? 2 : 1;
}

/**
 * Opens a session for a user who just proved who they are, or says what is still
 * missing. Call it with the transaction of the sign-in when there is one, so that
 * consuming a code and opening the session commit together.
 *
 * One statement inserts the session, writes its audit row and stamps the user's
 * last sign-in: atomic without a transaction of its own, and one round trip on
 * the hot sign-in path.
 */
export async function establishSession(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  proof: Proof,
  context: RequestContext,
): Promise<Establishment> {
  const owed = await owedFactor(db, environment, user, proof);
  if (owed) return owed;
  const token = randomToken(32);
  const now = new Date();
  const parent = proof.parentSession;
  const impersonator = proof.impersonator ?? (parent ? impersonatorOf(parent) : null);
  const lifetimeSeconds = Math.min(environment.settings.sessions.lifetimeSeconds, impersonator ? IMPERSONATION_MAX_SECONDS : Infinity);
  const lifetimeEnd = new Date(now.getTime() + lifetimeSeconds * 1000);
  const session: SessionRow = {
    id: randomUUID(),
    environmentId: environment.id,
    userId: user.id,
    tokenHash: sha256(token),
    status: "active",
    createdAt: now,
    lastActiveAt: now,
    lastVerifiedAt: parent?.lastVerifiedAt ?? now,
    expiresAt: parent && parent.expiresAt < lifetimeEnd ? parent.expiresAt : lifetimeEnd,
    revokedAt: null,
    userAgent: context.userAgent,
    ipAddress: context.ip,
    amr: proof.methods,
    aal: assuranceLevel(proof.methods),
    authenticatedAt: now,
    reverifiedAt: null,
    parentSessionId: parent?.id ?? null,
    // A new sign-in acts for no organization until the client picks one.
    activeOrganizationId: null,
    impersonatorType: impersonator?.type ?? null,
    impersonatorId: impersonator?.id ?? null,
  };
  const at = now.toISOString();
  const actor = sessionActor({ session, user }, context.requestId);
  const event = { environmentId: environment.id, type: "session.created", actor, subjectId: user.id, data: { sessionId: session.id, amr: proof.methods } } as const;
  // The user's row first, on the sign-in generation the proof was read with: a
  // revocation of all the user's sessions in progress holds the row, this waits for it
  // and then finds the generation moved on, and nothing is written. Otherwise the
  // session exists before any later revocation's statement looks for it.
  const [opened] = await queryRows<{ opened: boolean }>(
    db,
    sql`
    with signed_in as (
      update users set last_sign_in_at = ${at}::timestamptz
      where id = ${user.id} and sign_in_generation = ${user.signInGeneration}
      returning id
    ), new_session as (
      insert into sessions (id, environment_id, user_id, token_hash, status, created_at, last_active_at, last_verified_at,
                            expires_at, user_agent, ip_address, amr, aal, authenticated_at, parent_session_id,
                            impersonator_type, impersonator_id)
      select ${session.id}, ${session.environmentId}, ${session.userId}, ${session.tokenHash}, 'active',
             ${at}::timestamptz, ${at}::timestamptz, ${session.lastVerifiedAt.toISOString()}::timestamptz, ${session.expiresAt.toISOString()}::timestamptz,
             ${session.userAgent}, ${session.ipAddress}, ${`{${proof.methods.join(",")}}`}::text[], ${session.aal}, ${at}::timestamptz,
             ${session.parentSessionId}::uuid, ${session.impersonatorType}, ${session.impersonatorId}
      from signed_in
      returning id
    ), audit as (${eventInsert(event, sql`exists (select 1 from new_session)`)})
    select exists (select 1 from new_session) as opened`,
  );
  if (!opened?.opened) throw overtakenSignIn();

  const state = await sessionState(db, environment, user, session.id);
  const grant: SessionGrant = {
    session,
    token,
    user,
    state,
    accessToken: state.status === "ACTIVE" ? await mintAccessToken(db, environment, session, { origin: context.origin }) : null,
  };
  return state.status === "ACTIVE" ? { kind: "session", grant } : { kind: "pending_gates", grant };
}
