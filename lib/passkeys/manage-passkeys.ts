import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { passkeys } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { sendMfaNotice } from "../mfa/mfa-notices";
import { hasAnyFactor, readUserFactors } from "../mfa/user-factors";
import type { ActiveSession } from "../sessions/resolve-session";
import { getLiveUserOrThrow } from "../users/get-user";
import { listUserPasskeys, toPasskeyView, type PasskeyRow } from "./credentials";

/** One of the caller's own passkeys; another user's or environment's answers as if it did not exist. */
async function ownPasskeyOrThrow(db: Database, current: ActiveSession, passkeyId: string): Promise<PasskeyRow> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, current.user.id), eq(passkeys.environmentId, current.session.environmentId)))
    .limit(1);
  if (!row) throw new AppError("resource_not_found", "You have no passkey with this id.");
  return row;
}

export async function listMyPasskeys(db: Database, current: ActiveSession) {
  return { items: (await listUserPasskeys(db, current.user.id)).map(toPasskeyView) };
}

export async function renamePasskey(db: Database, environment: EnvironmentContext, current: ActiveSession, passkeyId: string, name: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const row = await ownPasskeyOrThrow(tx, current, passkeyId);
    const [renamed] = await tx.update(passkeys).set({ name }).where(eq(passkeys.id, row.id)).returning();
    await recordEvent(tx, { environmentId: environment.id, type: "passkey.renamed", actor, subjectId: current.user.id, data: { passkeyId } });
    return toPasskeyView(renamed ?? row);
  });
}

/**
 * Removes one of the caller's passkeys. In an environment that requires MFA the
 * user's last factor stays: with no authenticator app, the last passkey cannot go
 * (the user would be held at the enrollment gate on their next request). Checked
 * under the user's row lock, so two removals at once cannot both pass it.
 */
export async function deletePasskey(db: Database, environment: EnvironmentContext, current: ActiveSession, passkeyId: string, actor: Actor) {
  await db.transaction(async (tx) => {
    const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
    const row = await ownPasskeyOrThrow(tx, current, passkeyId);
    const factors = await readUserFactors(tx, owner.id);
    if (environment.settings.mfa.required && !hasAnyFactor({ ...factors, passkeys: factors.passkeys - 1 })) {
      throw new AppError("invalid_request", "This is your last second factor and this application requires one: add another before removing it.");
    }
    await tx.delete(passkeys).where(eq(passkeys.id, row.id));
    await recordEvent(tx, { environmentId: environment.id, type: "passkey.removed", actor, subjectId: owner.id, data: { passkeyId } });
    await sendMfaNotice(tx, environment, owner, "passkey_removed");
  });
  return { status: "removed" };
}
