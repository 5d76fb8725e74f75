import type { Database } from "@/db/client";
import { invalidCredentials, signIn } from "../auth/sign-in";
import type { OperatorIdentity } from "../operation/caller";
import type { RequestContext } from "../operation/request-context";
import { revokeSession } from "../sessions/revoke-sessions";
import { internalEnvironment } from "./internal-environment";
import { operatorOfUser } from "./operators";

/** A signed-in operator and the session of theirs in the internal environment that the dashboard's cookie names. */
export interface OperatorSignIn {
  operator: OperatorIdentity;
  sessionId: string;
}

/**
 * Email + password sign-in of an operator: the users' own sign-in (lib/auth/sign-in.ts)
 * on the internal environment, so argon2id, the per-IP and per-address rate limits,
 * the failure streak and the one answer for a wrong password and an unknown address
 * (after the same argon2 work) are the very rules end-users get. It opens a session
 * there, which carries the operators' lifetime and idle limit and which sign-out revokes.
 */
export async function signInOperator(
  db: Database,
  input: { email: string; password: string },
  context: RequestContext,
): Promise<OperatorSignIn> {
  const environment = await internalEnvironment(db);
  const established = await signIn(db, environment, input, context);
  switch (established.kind) {
    case "session": {
      const { session, user } = established.grant;
      const operator = await operatorOfUser(db, user.id);
      if (!operator || !user.email) {
        // A user of the internal environment who is no operator (a removal half done by hand): no way in.
        await db.transaction((tx) =>
          revokeSession(tx, { environmentId: environment.id, userId: user.id, sessionId: session.id }, { type: "user", id: user.id, requestId: context.requestId }, "revoke"),
        );
        throw invalidCredentials();
      }
      return { operator: { id: operator.id, email: user.email, role: operator.role }, sessionId: session.id };
    }
    case "pending_gates":
    case "second_factor_required":
    case "enrollment_required":
      // The internal environment asks for no consent, its addresses are verified, and operators
      // cannot enroll a second factor yet (issue 17, a later part): none of these can happen.
      throw new Error(`operator sign-in ended in ${established.kind}, which the dashboard does not handle yet`);
  }
}
