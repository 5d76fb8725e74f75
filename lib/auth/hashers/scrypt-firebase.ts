import { createCipheriv, scrypt } from "node:crypto";
import { BASE64, strictBase64, type FirebaseScryptConfig, type Hasher } from "./hasher";
import { equalDigests } from "./equal-secrets";

/**
 * Firebase's modified scrypt. The export gives each user a base64 `passwordHash` and
 * `salt`; the project gives `signerKey`, `saltSeparator`, `rounds` and `memCost`.
 * The hash is the signer key encrypted with AES-256-CTR (zero IV) under the first 32
 * bytes of scrypt(password, salt ‖ saltSeparator, N = 2^memCost, r = rounds, p = 1).
 *
 * Stored self-contained, one user per digest, so that verifying needs nothing beyond
 * the row and two imports with different projects cannot mix parameters up:
 * `scrypt_firebase$<rounds>$<memCost>$<salt>$<saltSeparator>$<signerKey>$<hash>` (base64 fields).
 * The signer key is then stored with every such user, no more exposed than the digests.
 */
const STORED = /^scrypt_firebase\$(\d)\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]*)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;
const MAX_ROUNDS = 8;
const MAX_MEM_COST = 14;
/** Firebase's signer keys are 64 bytes; a short one would make a match a matter of luck. */
const MIN_SIGNER_KEY_BYTES = 16;

/**
 * The hash is the signer key encrypted, so the two are as long as each other; both,
 * and the salt, must be real base64 of real bytes (strictBase64): else an empty key
 * and an empty hash would accept every password.
 */
function fieldsProblem(hash: string, salt: string, signerKey: string): string | null {
  const key = strictBase64(signerKey, MIN_SIGNER_KEY_BYTES);
  if (!key) return `hasherConfig.scrypt_firebase.signerKey must be base64 of at least ${MIN_SIGNER_KEY_BYTES} bytes`;
  if (!strictBase64(salt, 1)) return "needs passwordSalt: the user's base64 salt from the Firebase export";
  const bytes = strictBase64(hash, 1);
  if (!bytes || bytes.length !== key.length) return "must be the base64 passwordHash of the Firebase export, as long as the project's signer key";
  return null;
}

function scryptKey(password: string, salt: Buffer, rounds: number, memCost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N: 2 ** memCost, r: rounds, p: 1, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function configProblem(config: FirebaseScryptConfig | undefined): string | null {
  if (!config) return 'needs the project\'s parameters: send {"hasherConfig": {"scrypt_firebase": {signerKey, saltSeparator, rounds, memCost}}}';
  const { signerKey, saltSeparator, rounds, memCost } = config;
  if (!BASE64.test(signerKey) || (saltSeparator !== "" && !BASE64.test(saltSeparator))) return "hasherConfig.scrypt_firebase: signerKey and saltSeparator must be base64";
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_ROUNDS) return `hasherConfig.scrypt_firebase.rounds must be 1 to ${MAX_ROUNDS}`;
  if (!Number.isInteger(memCost) || memCost < 1 || memCost > MAX_MEM_COST) return `hasherConfig.scrypt_firebase.memCost must be 1 to ${MAX_MEM_COST}`;
  return null;
}

export const scryptFirebaseHasher: Hasher = {
  name: "scrypt_firebase",
  recognizes: (digest) => digest.startsWith("scrypt_firebase$"),
  normalize(digest, { passwordSalt, hasherConfig }) {
    if (!BASE64.test(digest)) return { ok: false, detail: "must be the base64 passwordHash of the Firebase export" };
    if (!passwordSalt || !BASE64.test(passwordSalt)) return { ok: false, detail: "needs passwordSalt: the user's base64 salt from the Firebase export" };
    const config = hasherConfig?.scrypt_firebase;
    const problem = configProblem(config);
    if (problem || !config) return { ok: false, detail: problem ?? "" };
    const { rounds, memCost, saltSeparator, signerKey } = config;
    const fields = fieldsProblem(digest, passwordSalt, signerKey);
    if (fields) return { ok: false, detail: fields };
    return { ok: true, stored: ["scrypt_firebase", rounds, memCost, passwordSalt, saltSeparator, signerKey, digest].join("$") };
  },
  async verify(stored, password) {
    const match = STORED.exec(stored);
    if (!match) return false;
    const [, rounds, memCost, salt, separator, signerKey, expected] = match as unknown as string[] as [string, string, string, string, string, string, string];
    if (fieldsProblem(expected, salt, signerKey)) return false;
    const key = await scryptKey(password, Buffer.concat([Buffer.from(salt, "base64"), Buffer.from(separator, "base64")]), Number(rounds), Number(memCost));
    const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
    const computed = Buffer.concat([cipher.update(Buffer.from(signerKey, "base64")), cipher.final()]);
    return equalDigests(computed, Buffer.from(expected, "base64"));
  },
  needsRehash: () => true,
};
