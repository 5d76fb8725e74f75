import type { Database } from "@/db/client";
import { recordEvent } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type SessionGrant } from "../sessions/establish-session";
import { sessionActor } from "../sessions/impersonator";
import { lockRedeemingUser, redemptionRefused, type RedemptionRefusal } from "../sessions/redeeming-user";
import { spendImpersonationToken } from "./impersonation-tokens";

type Outcome = RedemptionRefusal | { kind: "opened"; grant: SessionGrant };

/**
 * Opens the impersonation session a token stands for (POST /_svc/auth/session/impersonate).
 * One transaction spends the token, locks the user, opens the session through
 * establishSession (method `impersonation`: no second factor is owed, the lifetime
 * is an hour at most, the session records its impersonator) and records the start.
 * The user is checked again here, as they are now (lockRedeemingUser): deleted, or
 * all their sessions revoked since the token was minted, is 400 invalid_code like an
 * unknown, used or expired token; banned is 403 user_banned. A refused token is
 * spent all the same.
 */
export async function redeemImpersonationToken(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  context: RequestContext,
): Promise<SessionGrant> {
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const spent = await spendImpersonationToken(tx, environment, token);
    if (!spent) return { kind: "invalid" };
    const redeeming = await lockRedeemingUser(tx, environment, spent.userId, spent.payload);
    if (redeeming.kind !== "user") return redeeming;
    const result = await establishSession(tx, environment, redeeming.user, { methods: ["impersonation"], impersonator: spent.impersonator }, context);
    switch (result.kind) {
      case "session":
      case "pending_gates":
        break;
      // owedFactor asks nothing of an impersonation: the operator's act is not the user's sign-in.
      case "second_factor_required":
      case "enrollment_required":
        throw new Error(`an impersonation owed ${result.kind}`);
    }
    const { grant } = result;
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "user.impersonation_started",
      actor: sessionActor(grant, context.requestId),
      subjectId: grant.user.id,
      data: { tokenId: spent.tokenId, sessionId: grant.session.id, actorId: spent.impersonator.id },
    });
    return { kind: "opened", grant };
  });
  if (outcome.kind !== "opened") throw redemptionRefused(outcome);
  return outcome.grant;
}
