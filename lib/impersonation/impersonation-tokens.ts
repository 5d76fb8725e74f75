import type { Database } from "@/db/client";
import { recordEvent, type Actor } from "../audit/record-event";
import { issueCode, spendToken } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import type { ServerCaller } from "../operation/caller";
import type { Impersonator } from "../sessions/impersonator";
import { generationOf } from "../sessions/sign-in-generation";
import { getLiveUserOrThrow } from "../users/get-user";
import type { ImpersonationTokenInput } from "./schemas";

/** A token opens a session for 10 minutes after it is minted, once (CONTRACT §5). */
export const IMPERSONATION_TOKEN_LIFETIME_MINUTES = 10;

/** What a spent token stands for. */
export interface SpentImpersonationToken {
  tokenId: string;
  userId: string;
  impersonator: Impersonator;
  /** The user's sign-in generation when it was minted (lib/sessions/sign-in-generation.ts). */
  payload: JsonObject;
}

/**
 * Who the token says acts. A secret key names any identifier of its own (a support
 * agent's id); an operator of the dashboard acts as themselves, so an audit row
 * always names the person who really held the session.
 */
function impersonatorFor(caller: ServerCaller, actorId: string): Impersonator {
  if (caller.kind === "secretKey") return { type: "secret_key", id: actorId };
  if (actorId !== caller.operator.id) {
    throw new AppError("forbidden", "An operator impersonates as themselves: actorId must be your own operator id.");
  }
  return { type: "operator", id: actorId };
}

/**
 * Mints a one-time token to act as the user (POST /api/server/v1/impersonation-tokens):
 * stored as its SHA-256 only (one_time_codes, purpose `impersonation`), good for 10
 * minutes and one redemption, recorded with the caller as actor. Unknown and deleted
 * users are 404, one of another environment 403 environment_mismatch, a banned one
 * 403 user_banned. The token carries the user's sign-in generation: revoking all of
 * their sessions (a ban, a password change, sign out everywhere) also voids it.
 */
export async function issueImpersonationToken(
  db: Database,
  environment: EnvironmentContext,
  caller: ServerCaller,
  input: ImpersonationTokenInput,
  actor: Actor,
): Promise<{ token: string; expiresAt: string }> {
  const impersonator = impersonatorFor(caller, input.actorId);
  return db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, environment.id, input.userId);
    if (user.status === "banned") throw new AppError("user_banned", "This user is banned: nobody can act as them.");
    const issued = await issueCode(tx, {
      environmentId: environment.id,
      purpose: "impersonation",
      // Addresses key the email-code caps; an impersonation token is found by its value only.
      email: user.email ?? "",
      userId: user.id,
      payload: { ...generationOf(user), impersonatorType: impersonator.type, impersonatorId: impersonator.id },
      lifetimeMinutes: IMPERSONATION_TOKEN_LIFETIME_MINUTES,
      withCode: false,
    });
    const expiresAt = issued.expiresAt.toISOString();
    await recordEvent(tx, {
      environmentId: environment.id,
      type: "user.impersonation_token_created",
      actor,
      subjectId: user.id,
      data: { tokenId: issued.id, actorId: impersonator.id, reason: input.reason ?? null, expiresAt },
    });
    return { token: issued.token, expiresAt };
  });
}

function parseImpersonator(payload: JsonObject): Impersonator | null {
  const { impersonatorType: type, impersonatorId: id } = payload;
  if ((type !== "secret_key" && type !== "operator") || typeof id !== "string") return null;
  return { type, id };
}

/**
 * Spends a token of this environment (spendToken: one conditional UPDATE, so of
 * concurrent redemptions exactly one gets it); null for unknown, expired, used and
 * foreign tokens alike.
 */
export async function spendImpersonationToken(db: Database, environment: EnvironmentContext, token: string): Promise<SpentImpersonationToken | null> {
  const row = await spendToken(db, environment.id, "impersonation", token);
  const impersonator = row ? parseImpersonator(row.payload) : null;
  if (!row?.userId || !impersonator) return null;
  return { tokenId: row.id, userId: row.userId, impersonator, payload: row.payload };
}
