import { exportJWK, generateKeyPair } from "jose";
import type { Database } from "@/db/client";
import { signingKeys } from "@/db/schema";
import { randomToken } from "../crypto/tokens";
import { seal } from "../crypto/secret-box";

export const SIGNING_ALGORITHM = "ES256" as const;

/**
 * Creates an environment's signing key pair. The public JWK is published as-is;
 * the private JWK is sealed under the master key before it touches the database.
 */
export async function createSigningKey(db: Database, environmentId: string): Promise<{ kid: string }> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = `key_${randomToken(12)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM };
  await db.insert(signingKeys).values({
    id: kid,
    environmentId,
    algorithm: SIGNING_ALGORITHM,
    publicJwk,
    privateJwkSealed: await seal(JSON.stringify(privateJwk)),
  });
  return { kid };
}
