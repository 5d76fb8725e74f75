import type { Database } from "@/db/client";
import type { Actor } from "../audit/record-event";
import { resetUserFactors } from "../mfa/reset-factors";
import { internalEnvironment } from "./internal-environment";
import type { OperatorSummary } from "./operators";

/**
 * The way back for an operator who lost their authenticator, their passkeys and their
 * recovery codes (`npm run cli -- operator reset-factors`): the end-users' own reset of
 * second factors (lib/mfa/reset-factors.ts) on the internal environment, so every
 * factor goes, every session of theirs ends, and they are told at their address. They
 * then sign in with the password alone and set up a factor again; in production, an
 * owner or admin can only read until they do.
 */
export async function resetOperatorFactors(db: Database, operator: Pick<OperatorSummary, "userId">, actor: Actor): Promise<void> {
  const environment = await internalEnvironment(db);
  await resetUserFactors(db, environment, operator.userId, actor);
}
