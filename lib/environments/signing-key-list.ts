import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { signingKeys } from "@/db/schema";

/** The newest keys shown; each rotation adds one, and the old ones matter less and less. */
export const SIGNING_KEY_LIST_LIMIT = 50;

export const signingKeySchema = z
  .object({
    kid: z.string(),
    alg: z.enum(["ES256", "EdDSA"]),
    status: z.enum(["active", "retired"]).meta({ description: "`active` signs new tokens; `retired` ones only verify tokens they signed until those expire." }),
    createdAt: z.iso.datetime(),
    retiredAt: z.iso.datetime().nullable(),
    publicJwk: z.record(z.string(), z.unknown()).meta({ description: "The public key as a JWK (as in the JWKS); never the private key." }),
  })
  .meta({ id: "SigningKey" });

export const signingKeyListSchema = z.object({ items: z.array(signingKeySchema) }).meta({ id: "SigningKeyList" });

/** The environment's signing keys, newest first (at most SIGNING_KEY_LIST_LIMIT): public material only. */
export async function listSigningKeys(db: Database, environmentId: string): Promise<z.output<typeof signingKeyListSchema>> {
  const rows = await db
    .select({ kid: signingKeys.id, alg: signingKeys.algorithm, createdAt: signingKeys.createdAt, retiredAt: signingKeys.retiredAt, publicJwk: signingKeys.publicJwk })
    .from(signingKeys)
    .where(eq(signingKeys.environmentId, environmentId))
    .orderBy(desc(signingKeys.createdAt), desc(signingKeys.id))
    .limit(SIGNING_KEY_LIST_LIMIT);
  return {
    items: rows.map((row) => ({
      kid: row.kid,
      alg: row.alg,
      status: row.retiredAt ? "retired" : "active",
      createdAt: row.createdAt.toISOString(),
      retiredAt: row.retiredAt?.toISOString() ?? null,
      publicJwk: row.publicJwk,
    })),
  };
}
