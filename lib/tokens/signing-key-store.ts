import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { importJWK, type CryptoKey, type JWK } from "jose";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { signingKeys } from "@/db/schema";
import { unseal } from "../crypto/secret-box";

export interface SigningKey {
  kid: string;
  algorithm: "ES256" | "EdDSA";
  privateKey: CryptoKey;
}

/** Unsealed private keys by kid. A kid never changes its key, so entries never go stale. */
const unsealed = new Map<string, Promise<CryptoKey>>();

/**
 * How long a process keeps using the current key it looked up. After a rotation
 * elsewhere, a process may sign with the previous key for this long: harmless,
 * since that key stays published until its tokens expire.
 */
const CURRENT_KEY_TTL_MS = 5_000;

const currentByEnvironment = new Map<string, { row: CurrentKeyRow; until: number }>();

interface CurrentKeyRow {
  id: string;
  algorithm: "ES256" | "EdDSA";
  sealed: string;
}

/** Drops the remembered current key, so the next token uses the newest one (called on rotation). */
export function forgetCurrentSigningKey(environmentId: string): void {
  currentByEnvironment.delete(environmentId);
}

async function currentKeyRow(db: Database, environmentId: string): Promise<CurrentKeyRow> {
  const remembered = currentByEnvironment.get(environmentId);
  if (remembered && remembered.until > Date.now()) return remembered.row;
  const current = preparedStatement(db, "current_signing_key", (d) =>
    d
      .select({ id: signingKeys.id, algorithm: signingKeys.algorithm, sealed: signingKeys.privateJwkSealed })
      .from(signingKeys)
      .where(and(eq(signingKeys.environmentId, sql.placeholder("environmentId")), isNull(signingKeys.retiredAt)))
      .orderBy(desc(signingKeys.createdAt))
      .limit(1)
      .prepare("current_signing_key"),
  );
  const [row] = await current.execute({ environmentId });
  if (!row) throw new Error(`environment ${environmentId} has no signing key`);
  currentByEnvironment.set(environmentId, { row, until: Date.now() + CURRENT_KEY_TTL_MS });
  return row;
}

/** The key that signs new tokens: the newest one not retired. */
export async function currentSigningKey(db: Database, environmentId: string): Promise<SigningKey> {
  const row = await currentKeyRow(db, environmentId);
  let privateKey = unsealed.get(row.id);
  if (!privateKey) {
    privateKey = unseal(row.sealed).then(async (json) => (await importJWK(JSON.parse(json) as JWK, row.algorithm)) as CryptoKey);
    unsealed.set(row.id, privateKey);
    privateKey.catch(() => unsealed.delete(row.id));
  }
  return { kid: row.id, algorithm: row.algorithm, privateKey: await privateKey };
}
