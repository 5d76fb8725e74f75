import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { invalidCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import type { UserRow } from "../users/serialize";
import { issuedAtCurrentGeneration } from "./sign-in-generation";

/** Why a spent one-time token opens nothing: it is no good (400 invalid_code), or its user is banned (403 user_banned). */
export type RedemptionRefusal = { kind: "invalid" } | { kind: "banned" };

/**
 * The user a spent one-time sign-in token (a session ticket, an impersonation token)
 * stands for, as they are now, locked FOR UPDATE until the session is open: a ban or
 * a revocation of all their sessions waits for it, or went first and is seen here.
 * A user gone from this environment or deleted, or one whose sessions were all
 * revoked since the token was issued (its payload's sign-in generation), makes the
 * token invalid like an unknown one; a banned user is told so.
 */
export async function lockRedeemingUser(
  tx: Database,
  environment: EnvironmentContext,
  userId: string,
  payload: JsonObject,
): Promise<{ kind: "user"; user: UserRow } | RedemptionRefusal> {
  const [user] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.environmentId, environment.id)))
    .for("update");
  if (!user || user.status === "deleted") return { kind: "invalid" };
  if (user.status === "banned") return { kind: "banned" };
  if (!issuedAtCurrentGeneration(payload, user)) return { kind: "invalid" };
  return { kind: "user", user };
}

/** The answer to a refused redemption, thrown once its transaction has committed the spent token. */
export function redemptionRefused(refusal: RedemptionRefusal): AppError {
  switch (refusal.kind) {
    case "invalid":
      return invalidCode();
    case "banned":
      return new AppError("user_banned", "This account has been banned.");
  }
}
