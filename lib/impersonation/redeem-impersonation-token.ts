import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type SessionGrant } from "../sessions/establish-session";
import { sessionActor } from "../sessions/impersonator";
import { issuedAtCurrentGeneration } from "../sessions/sign-in-generation";
import { spendImpersonationToken } from "./impersonation-tokens";

type Outcome = { kind: "invalid" } | { kind: "banned" } | { kind: "opened"; grant: SessionGrant };

/**
 * Opens the impersonation session a token stands for (POST /_svc/auth/session/impersonate).
 * One transaction spends the token, locks the user, opens the session through
 * establishSession (method `impersonation`: no second factor is owed, the lifetime
 * is an hour at most, the session records its impersonator) and records the start.
 * The user is checked again here, as they are now: deleted, or all their sessions
 * revoked since the token was minted, is 400 invalid_code like an unknown, used or
 * expired token; banned is 403 user_banned. A failing token is spent all the same.
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
    const [user] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, spent.userId), eq(users.environmentId, environment.id)))
      .for("update");
    if (!user || user.status === "deleted") return { kind: "invalid" };
    if (user.status === "banned") return { kind: "banned" };
    if (!issuedAtCurrentGeneration(spent.payload, user)) return { kind: "invalid" };
    const result = await establishSession(tx, environment, user, { methods: ["impersonation"], impersonator: spent.impersonator }, context);
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
      subjectId: user.id,
      data: { tokenId: spent.tokenId, sessionId: grant.session.id, actorId: spent.impersonator.id },
    });
    return { kind: "opened", grant };
  });
  switch (outcome.kind) {
    case "invalid":
      throw invalidCode();
    case "banned":
      throw new AppError("user_banned", "This account has been banned.");
    case "opened":
      return outcome.grant;
  }
}
