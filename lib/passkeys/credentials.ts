import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { passkeys } from "@/db/schema";
import { isKnownTransport } from "./schemas";

export type PasskeyRow = typeof passkeys.$inferSelect;

/** How many passkeys one user may hold: enough for every device, few enough to list. */
export const MAX_PASSKEYS = 25;

/**
 * The user handle of a user's passkeys (WebAuthn `user.id`): the 16 bytes of the user
 * id. Stable for the user's lifetime and personal to this service, it carries no
 * email or name for an authenticator to reveal.
 */
export function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll("-", ""), "hex"));
}

/** The handle as a response's `userHandle` carries it: base64url. */
export function encodedUserHandle(userId: string): string {
  return Buffer.from(userHandle(userId)).toString("base64url");
}

export function toPasskeyView(row: PasskeyRow) {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: row.transports.filter(isKnownTransport),
  };
}

/** The user's passkeys, oldest first. */
export function listUserPasskeys(db: Database, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

/** A credential of this environment only: a passkey made for another environment signs nothing in here. */
export async function findPasskeyByCredential(db: Database, environmentId: string, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.environmentId, environmentId), eq(passkeys.credentialId, credentialId)))
    .limit(1);
  return row ?? null;
}

/** The descriptors that name the user's passkeys in ceremony options (allow- and excludeCredentials). */
export function credentialDescriptors(rows: PasskeyRow[]) {
  return rows.map((row) => ({ id: row.credentialId, transports: row.transports }));
}
