import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type Establishment } from "../sessions/establish-session";
import { acceptAssertion, assertionOptions, verifyAssertion } from "./assertions";
import type { ChallengeBinding } from "./challenges";
import { findPasskeyByCredential } from "./credentials";
import { relyingParty } from "./relying-party";
import type { AuthenticationResponse } from "./schemas";

/** Every failed passkey sign-in answers this, whatever failed: no credential, user or challenge can be probed. */
export function passkeyRefused(): AppError {
  return new AppError("invalid_credentials", "The passkey could not be verified.");
}

/** Nobody is known before a discoverable sign-in: its challenge is bound to the environment alone. */
function signInBinding(environment: EnvironmentContext): ChallengeBinding {
  return { environmentId: environment.id, purpose: "authentication", userId: null };
}

/** Options for a sign-in with no email typed: any passkey of this RP ID may answer (conditional UI too). */
export async function passkeySignInOptions(db: Database, environment: EnvironmentContext, context: RequestContext) {
  const options = await assertionOptions(db, relyingParty(environment, context.host), signInBinding(environment), [], "required");
  return { options };
}

/**
 * Signs in with a passkey alone (CONTRACT §3: a passkey is a first factor that
 * owes no second one). The credential is looked up in this environment only; the
 * assertion must verify with user verification; the challenge, the counter and the
 * session are taken in one transaction. A banned user learns so only after proving
 * the passkey, like a banned user's right password.
 */
export async function signInWithPasskey(
  db: Database,
  environment: EnvironmentContext,
  response: AuthenticationResponse,
  context: RequestContext,
): Promise<Establishment> {
  // A discoverable sign-in names its user (WebAuthn §7.2 step 6); verifyAssertion checks it is the owner.
  if (!response.response.userHandle) throw passkeyRefused();
  const passkey = await findPasskeyByCredential(db, environment.id, response.id);
  if (!passkey) throw passkeyRefused();
  const assertion = await verifyAssertion(relyingParty(environment, context.host), passkey, response, "required");
  if (!assertion) throw passkeyRefused();
  return db.transaction(async (tx) => {
    // The user's row before the passkey's (acceptAssertion's counter): the order a reset of
    // the user's factors takes them in (lib/mfa/reset-factors.ts), so the two queue, never deadlock.
    const [user] = await tx.select().from(users).where(eq(users.id, passkey.userId)).for("update");
    if (!user || user.environmentId !== environment.id || user.status === "deleted") throw passkeyRefused();
    if (!(await acceptAssertion(tx, signInBinding(environment), assertion))) throw passkeyRefused();
    if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
    return establishSession(tx, environment, user, { methods: ["webauthn"] }, context);
  });
}
