import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import type { FactorProof } from "../sessions/reverification";
import type { AuthMethod } from "../sessions/establish-session";
import type { UserRow } from "../users/serialize";
import { verifyPassword } from "./password-hasher";
import { assertPasswordNotThrottled, invalidCredentials, passwordFailed, passwordSucceeded } from "./sign-in";

/**
 * Checks a proof against the user's own factors and names the method it proved.
 * Reverification runs every proof through here, so a factor the user has is
 * accepted wherever a recent sign-in is asked for. A wrong proof and a factor the
 * user does not have answer alike. Password proofs share the account's sign-in
 * throttle: a stolen session is no faster a password oracle than the sign-in page.
 */
export async function verifyFactor(db: Database, environment: EnvironmentContext, user: UserRow, proof: FactorProof): Promise<AuthMethod> {
  if (!user.passwordHash) throw invalidCredentials();
  // Keyed like sign-in (the address), so guesses here and at sign-in add up.
  const identifier = user.email ?? `user:${user.id}`;
  const streak = await assertPasswordNotThrottled(db, environment, identifier);
  if (!(await verifyPassword(user.passwordHash, proof.password).catch(() => false))) throw await passwordFailed(db, environment, identifier);
  await passwordSucceeded(db, environment, identifier, streak);
  return "pwd";
}
