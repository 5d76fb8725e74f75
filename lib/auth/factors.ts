import type { FactorProof } from "../sessions/reverification";
import type { AuthMethod } from "../sessions/establish-session";
import type { UserRow } from "../users/serialize";
import { verifyPassword } from "./password-hasher";
import { invalidCredentials } from "./sign-in";

/**
 * Checks a proof against the user's own factors and names the method it proved.
 * Reverification runs every proof through here, so a factor the user has is
 * accepted wherever a recent sign-in is asked for. A wrong proof and a factor the
 * user does not have answer alike.
 */
export async function verifyFactor(user: UserRow, proof: FactorProof): Promise<AuthMethod> {
  if (user.passwordHash && (await verifyPassword(user.passwordHash, proof.password).catch(() => false))) return "pwd";
  throw invalidCredentials();
}
