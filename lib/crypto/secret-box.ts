import { CompactEncrypt, compactDecrypt } from "jose";
import { masterKey } from "./master-key";

/** Seals a secret for storage: a compact JWE (`dir`, A256GCM) under the master key. */
export async function seal(plaintext: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .encrypt(masterKey());
}

export async function unseal(sealed: string): Promise<string> {
  const { plaintext } = await compactDecrypt(sealed, masterKey());
  return new TextDecoder().decode(plaintext);
}
