import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { operators } from "@/db/schema";
import type { OperatorIdentity } from "../operation/caller";
import type { RequestContext } from "../operation/request-context";
import { findLiveSessionById } from "../sessions/resolve-session";
import { revokeSession } from "../sessions/revoke-sessions";
import { internalEnvironment } from "./internal-environment";

/** What the dashboard's cookie (next-auth's encrypted JWT) says about its operator. */
export interface OperatorClaims {
  operatorId: string;
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The operator behind a dashboard cookie, read afresh on every request: their session
 * in the internal environment must be live by the users' own rules (not revoked by
 * sign-out or removal, under 12 hours old, active within 30 minutes: each call
 * touches it, so using the dashboard keeps it alive) and their operator row must
 * still exist; the role is the row's, not the cookie's, so a changed role or a
 * removed operator takes effect at once. Null otherwise.
 */
export async function findOperatorSession(db: Database, claims: OperatorClaims): Promise<OperatorIdentity | null> {
  if (!UUID.test(claims.operatorId) || !UUID.test(claims.sessionId)) return null;
  const environment = await internalEnvironment(db);
  const live = await findLiveSessionById(db, environment, claims.sessionId);
  if (!live?.user.email) return null;
  const [operator] = await db
    .select()
    .from(operators)
    .where(and(eq(operators.id, claims.operatorId), eq(operators.userId, live.user.id)))
    .limit(1);
  return operator ? { id: operator.id, email: live.user.email, role: operator.role } : null;
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
