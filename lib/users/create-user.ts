import { and, eq, isNotNull, ne } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { emailAddresses, users } from "@/db/schema";
import type { Actor } from "../audit/record-event";
import { assertPasswordAllowed } from "../auth/password-policy";
import type { EnvironmentContext } from "../environments/context";
import { assertMetadataFits } from "./metadata";
import { emailTaken, externalIdTaken, insertNewUsers, newUserRow, takenError, takenIdentifiers } from "./new-user-rows";
import type { createUserBody, ServerUser } from "./schemas";
import { NO_FACTORS, toServerUser } from "./serialize";

export { emailTaken } from "./new-user-rows";

/**
 * Throws identifier_exists when the address belongs to a user other than `ownerId`.
 * Only a verified address belongs to anyone: a pending one added by some user holds nothing.
 */
export async function assertEmailFree(db: Database, environmentId: string, email: string, ownerId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: emailAddresses.id })
    .from(emailAddresses)
    .where(
      and(
        eq(emailAddresses.environmentId, environmentId),
        eq(emailAddresses.email, email),
        isNotNull(emailAddresses.verifiedAt),
        ownerId ? ne(emailAddresses.userId, ownerId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw emailTaken();
}

/**
 * Creates a user from the Server API. An email given here is trusted as verified
 * unless `emailVerified` says otherwise: the back-end vouches for it. A password may
 * come as an imported digest (lib/auth/password-hasher.ts). The unique indexes settle
 * concurrent creates; the early check only saves a needless argon2 hash.
 */
export async function createUser(
  db: Database,
  environment: EnvironmentContext,
  input: z.output<typeof createUserBody>,
  actor: Actor,
): Promise<ServerUser> {
  const { hasherConfig, ...fields } = input;
  assertMetadataFits(fields);
  if (fields.password !== undefined) await assertPasswordAllowed(environment.settings.passwordPolicy, fields.password);
  const taken = await takenIdentifiers(db, environment.id, fields.email ? [fields.email] : [], fields.externalId ? [fields.externalId] : []);
  if (taken.emails.size > 0) throw emailTaken();
  if (taken.externalIds.size > 0) throw externalIdTaken();
  const row = await newUserRow(environment, fields, { hasherConfig });
  try {
    await insertNewUsers(db, environment, [row], actor);
  } catch (error) {
    throw takenError(error) ?? error;
  }
  const [created] = await db.select().from(users).where(eq(users.id, row.id));
  if (!created) throw new Error("created user not found");
  return toServerUser(created, NO_FACTORS);
}
