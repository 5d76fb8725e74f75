import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { invalidCredentials, signIn } from "../auth/sign-in";
import { AppError } from "../errors";
import { establishSession, type Establishment } from "../sessions/establish-session";
import type { OperatorIdentity } from "../operation/caller";
import type { RequestContext } from "../operation/request-context";
import { revokeSession } from "../sessions/revoke-sessions";
import { internalEnvironment } from "./internal-environment";
import { findOperatorByEmail, operatorOfUser } from "./operators";

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
  return operatorSession(db, environment.id, await signIn(db, environment, input, context), context);
}

/**
 * Staff single sign-on: the staff identity provider vouched for this (verified)
 * address, so the operator who has it gets a session in the internal environment,
 * as a provider sign-in opens one for an end-user (method `oauth`). Nobody is
 * created here: an address that is no operator's is refused (403 forbidden), so the
 * provider can only let in people an owner made operators.
 */
export async function signInOperatorWithSso(db: Database, input: { email: string }, context: RequestContext): Promise<OperatorSignIn> {
  const environment = await internalEnvironment(db);
  const operator = await findOperatorByEmail(db, input.email);
  const [user] = operator ? await db.select().from(users).where(eq(users.id, operator.userId)).limit(1) : [];
  if (!user || user.status !== "active") throw new AppError("forbidden", "No operator has this address.");
  return operatorSession(db, environment.id, await establishSession(db, environment, user, { methods: ["oauth"] }, context), context);
}

/** The operator behind an opened session, or the refusal; the internal environment owes no gate or factor yet. */
async function operatorSession(db: Database, environmentId: string, established: Establishment, context: RequestContext): Promise<OperatorSignIn> {
  switch (established.kind) {
    case "session": {
      const { session, user } = established.grant;
      const operator = await operatorOfUser(db, user.id);
      if (!operator || !user.email) {
        // A user of the internal environment who is no operator (a removal half done by hand): no way in.
        await db.transaction((tx) =>
          revokeSession(tx, { environmentId, userId: user.id, sessionId: session.id }, { type: "user", id: user.id, requestId: context.requestId }, "revoke"),
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
