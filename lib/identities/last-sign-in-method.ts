import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import { AppError } from "../errors";
import type { UserRow } from "../users/serialize";

/**
 * Refuses to remove `identityId` when it is the owner's last way to sign in: no
 * password, no other connected account, no passkey. Without one the owner could
 * not sign in again, and whoever removed it (the owner by mistake, or someone with
 * their session) would have locked the account. Read under the owner's row lock (the caller holds it), so two removals at once
 * cannot both see the other's identity as the way that is left.
 */
export async function assertAnotherSignInMethod(db: Database, owner: UserRow, identityId: string): Promise<void> {
  if (owner.passwordHash !== null) return;
  const [row] = await queryRows<{ others: boolean }>(
    db,
    sql`select exists (select 1 from user_identities where user_id = ${owner.id} and id <> ${identityId})
            or exists (select 1 from passkeys where user_id = ${owner.id}) as others`,
  );
  if (!row?.others) {
    throw new AppError(
      "last_sign_in_method",
      "This is your last way to sign in: set a password, add a passkey or connect another account before disconnecting it.",
    );
  }
}
