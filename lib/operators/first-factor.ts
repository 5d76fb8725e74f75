import type { Database } from "@/db/client";
import type { RequestContext } from "../operation/request-context";
import { revokeAllUserSessions } from "../sessions/revoke-sessions";
import type { OperatorAccount } from "./operator-sessions";

/**
 * An operator's first second factor ends every other session of theirs. Each was
 * opened by a password alone (there was no factor to ask for), and one may be a
 * thief's: left alive, it would sit beside the new factor, in reach of the account
 * page's recovery codes and passkeys for as long as its sign-in counts as recent.
 * The session that enrolled stays, still short of the factor for the production
 * rule until the operator signs in with it (operatorOwesSecondFactor).
 */
export async function endSessionsBeforeFirstFactor(db: Database, account: OperatorAccount, context: RequestContext): Promise<void> {
  const { environment, session } = account;
  const userId = session.user.id;
  await db.transaction((tx) =>
    revokeAllUserSessions(
      tx,
      { environmentId: environment.id, userId, exceptSessionId: session.session.id },
      { type: "user", id: userId, requestId: context.requestId },
      "first_factor_added",
    ),
  );
}
