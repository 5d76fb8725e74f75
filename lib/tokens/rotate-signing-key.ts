import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments, signingKeys } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { forgetCurrentSigningKey } from "./signing-key-store";
import { createSigningKey } from "./signing-keys";

/**
 * Makes a new signing key current and retires the previous one, in one transaction.
 * New tokens from this process carry the new kid at once (other processes within
 * the few seconds they remember the current key); the retired key stays in the JWKS until
 * every token it signed has expired (see jwks.ts). The environment row is locked
 * first so two concurrent rotations queue: otherwise each could retire only the
 * keys it saw and both new keys would stay current.
 */
export async function rotateSigningKey(db: Database, environmentId: string, actor: Actor): Promise<{ kid: string }> {
  const rotated = await db.transaction(async (tx) => {
    const [environment] = await tx
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.id, environmentId))
      .for("update");
    if (!environment) throw new AppError("resource_not_found", `No environment ${environmentId}.`);
    const { kid } = await createSigningKey(tx, environmentId);
    const retired = await tx
      .update(signingKeys)
      .set({ retiredAt: sql`now()` })
      .where(and(eq(signingKeys.environmentId, environmentId), isNull(signingKeys.retiredAt), ne(signingKeys.id, kid)))
      .returning({ kid: signingKeys.id });
    await recordEvent(tx, {
      environmentId,
      type: "signing_key.rotated",
      actor,
      subjectId: null,
      data: { kid, retired: retired.map((row) => row.kid) },
    });
    return { kid };
  });
  // After the commit, or a request in between could remember the old key again.
  forgetCurrentSigningKey(environmentId);
  return rotated;
}
