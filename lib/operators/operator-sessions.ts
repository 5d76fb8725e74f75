import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { operators } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { dueSecondFactors, userFactorColumns } from "../mfa/user-factors";
import type { OperatorIdentity } from "../operation/caller";
import type { RequestContext } from "../operation/request-context";
import { findLiveSessionById, type ActiveSession } from "../sessions/resolve-session";
import { revokeSession } from "../sessions/revoke-sessions";
import { internalEnvironment } from "./internal-environment";

/** What the dashboard's cookie (next-auth's encrypted JWT) says about its operator. */
export interface OperatorClaims {
  operatorId: string;
  sessionId: string;
}

/**
 * A signed-in operator as their own account: the identity every dashboard request
 * acts as, and their live session in the internal environment, for the operations
 * they run on their own account there (second factors, lib/dashboard/operator-account.ts).
 */
export interface OperatorAccount {
  operator: OperatorIdentity;
  environment: EnvironmentContext;
  /**
   * The session as the Client API's session-level operations take it. The dashboard
   * holds it by id under next-auth's sealed cookie, so no token was presented: the
   * token stays empty and the caller counts as code of the client's own
   * (`bearer`), which is what a server action behind Next's origin check is.
   */
  session: ActiveSession;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The operator behind a dashboard cookie, read afresh on every request: their session
 * in the internal environment must be live by the users' own rules (not revoked by
 * sign-out or removal, under 12 hours old, active within 30 minutes: each call
 * touches it, so using the dashboard keeps it alive) and their operator row must
 * still exist; the role is the row's, not the cookie's, so a changed role or a
 * removed operator takes effect at once. Whether they hold a second factor is read
 * in the same statement as the row (the internal environment's rule,
 * dueSecondFactors: an authenticator app or a passkey), so adding or removing one
 * counts on the next request too. Null otherwise.
 */
export async function findOperatorAccount(db: Database, claims: OperatorClaims): Promise<OperatorAccount | null> {
  if (!UUID.test(claims.operatorId) || !UUID.test(claims.sessionId)) return null;
  const environment = await internalEnvironment(db);
  const live = await findLiveSessionById(db, environment, claims.sessionId);
  if (!live?.user.email) return null;
  const [row] = await db
    .select({
      operator: operators,
      // Qualified by hand: a one-table select writes its columns bare, which inside the subqueries would name the factor tables' own.
      factors: userFactorColumns(sql`${sql.identifier("operators")}.${sql.identifier("user_id")}`),
    })
    .from(operators)
    .where(and(eq(operators.id, claims.operatorId), eq(operators.userId, live.user.id)))
    .limit(1);
  if (!row) return null;
  const operator: OperatorIdentity = {
    id: row.operator.id,
    email: live.user.email,
    role: row.operator.role,
    hasSecondFactor: dueSecondFactors(environment, row.factors).length > 0,
    sessionProvedSecondFactor: live.session.aal >= 2,
  };
  return { operator, environment, session: { ...live, token: "", presentedAs: "bearer" } };
}

/** The operator identity of findOperatorAccount, or null. */
export async function findOperatorSession(db: Database, claims: OperatorClaims): Promise<OperatorIdentity | null> {
  return (await findOperatorAccount(db, claims))?.operator ?? null;
}

/** Sign-out: revokes the operator's session in the internal environment, so the cookie is dead even if kept. */
export async function endOperatorSession(db: Database, claims: OperatorClaims, context: RequestContext): Promise<void> {
  if (!UUID.test(claims.operatorId) || !UUID.test(claims.sessionId)) return;
  const environment = await internalEnvironment(db);
  const [operator] = await db.select().from(operators).where(eq(operators.id, claims.operatorId)).limit(1);
  if (!operator) return;
  const actor = { type: "user", id: operator.userId, requestId: context.requestId } as const;
  await db.transaction((tx) => revokeSession(tx, { environmentId: environment.id, userId: operator.userId, sessionId: claims.sessionId }, actor, "sign_out"));
}
