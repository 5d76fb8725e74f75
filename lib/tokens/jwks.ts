import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Database } from "@/db/client";
import { signingKeys } from "@/db/schema";
import { RETIRED_KEY_PUBLISH_SECONDS } from "./lifetimes";
import type { PublicJwk } from "./schemas";

/**
 * The environment's JSON Web Key Set: the current key, and every key retired less
 * than the longest token lifetime ago, so tokens signed just before a rotation
 * still verify until they expire.
 */
export async function publishedJwks(db: Database, environmentId: string): Promise<{ keys: PublicJwk[] }> {
  const publishedSince = new Date(Date.now() - RETIRED_KEY_PUBLISH_SECONDS * 1000);
  const rows = await db
    .select({ kid: signingKeys.id, algorithm: signingKeys.algorithm, jwk: signingKeys.publicJwk })
    .from(signingKeys)
    .where(
      and(
        eq(signingKeys.environmentId, environmentId),
        or(isNull(signingKeys.retiredAt), gt(signingKeys.retiredAt, publishedSince)),
      ),
    )
    .orderBy(desc(signingKeys.createdAt));
  return { keys: rows.map((row) => toPublicJwk(row.kid, row.algorithm, row.jwk)) };
}

/**
 * Copies only the public members by name: should a private member (`d`) ever be
 * stored next to them by mistake, it still never reaches the wire.
 */
function toPublicJwk(kid: string, algorithm: string, jwk: Record<string, unknown>): PublicJwk {
  const text = (name: string) => (typeof jwk[name] === "string" ? (jwk[name] as string) : undefined);
  const out: PublicJwk = { kty: text("kty") ?? "EC", kid, alg: algorithm, use: "sig" };
  for (const name of ["crv", "x", "y"] as const) {
    const value = text(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
