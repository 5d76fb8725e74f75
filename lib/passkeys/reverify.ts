import type { Database } from "@/db/client";
import type { Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { markReverified } from "../sessions/reverification";
import type { ActiveSession } from "../sessions/resolve-session";
import { acceptAssertion, assertionOptions, verifyAssertion } from "./assertions";
import type { ChallengeBinding } from "./challenges";
import { findPasskeyByCredential, listUserPasskeys } from "./credentials";
import { relyingParty } from "./relying-party";
import type { AuthenticationResponse } from "./schemas";
import { passkeyRefused } from "./sign-in";

function reverifyBinding(environment: EnvironmentContext, current: ActiveSession): ChallengeBinding {
  return { environmentId: environment.id, purpose: "reverification", userId: current.user.id };
}

/** Options naming the session user's passkeys, to prove one again inside the session. */
export async function passkeyReverifyOptions(db: Database, environment: EnvironmentContext, current: ActiveSession, context: RequestContext) {
  const owned = await listUserPasskeys(db, current.user.id);
  if (owned.length === 0) throw new AppError("invalid_request", "You have no passkey; confirm it's you with another factor.");
  const options = await assertionOptions(db, relyingParty(environment, context.host), reverifyBinding(environment, current), owned, "preferred");
  return { options };
}

/**
 * Opens the reverification window with a passkey of the session's own user: a passkey
 * of anyone else (another account on the same device) proves nothing about this one.
 */
export async function reverifyWithPasskey(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  response: AuthenticationResponse,
  context: RequestContext,
  actor: Actor,
) {
  const passkey = await findPasskeyByCredential(db, environment.id, response.id);
  const assertion =
    passkey && passkey.userId === current.user.id ? await verifyAssertion(relyingParty(environment, context.host), passkey, response, "preferred") : null;
  if (!assertion) throw passkeyRefused();
  return db.transaction(async (tx) => {
    if (!(await acceptAssertion(tx, reverifyBinding(environment, current), assertion))) throw passkeyRefused();
    return markReverified(tx, environment, current, "webauthn", actor);
  });
}
