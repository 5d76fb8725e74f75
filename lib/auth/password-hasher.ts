import { argon2idHash, argon2idHasher, argon2iHasher } from "./hashers/argon2";
import { bcryptHasher } from "./hashers/bcrypt";
import type { DigestExtras, Hasher, PasswordHasherName } from "./hashers/hasher";
import { pbkdf2Sha256Hasher } from "./hashers/pbkdf2-sha256";
import { scryptFirebaseHasher } from "./hashers/scrypt-firebase";
import { sha256Hasher } from "./hashers/sha256";

export { ARGON2_OPTIONS } from "./hashers/argon2";
export { PASSWORD_HASHERS, type DigestExtras, type FirebaseScryptConfig, type PasswordHasherName } from "./hashers/hasher";

/**
 * The one registry of password hashers, keyed by the stored digest's format: every
 * stored digest says which scheme made it (a PHC or modular crypt prefix, Django's
 * `pbkdf2_sha256$`, our `sha256$` and `scrypt_firebase$`), so no column names the
 * hasher and nothing can verify a digest with the wrong scheme.
 */
const HASHERS: readonly Hasher[] = [argon2idHasher, argon2iHasher, bcryptHasher, pbkdf2Sha256Hasher, scryptFirebaseHasher, sha256Hasher];
const BY_NAME = new Map(HASHERS.map((hasher) => [hasher.name, hasher]));

export interface PasswordCheck {
  ok: boolean;
  /** The password was right and the digest is not argon2id at today's parameters: sign-in replaces it. */
  needsRehash: boolean;
}

/** New passwords are always argon2id. */
export function hashPassword(password: string): Promise<string> {
  return argon2idHash(password);
}

/** Checks a password against a stored digest of any registered scheme; an unreadable digest is a wrong password, never a throw. */
export async function verifyPassword(storedDigest: string, password: string): Promise<PasswordCheck> {
  const hasher = HASHERS.find((candidate) => candidate.recognizes(storedDigest));
  if (!hasher) return { ok: false, needsRehash: false };
  const ok = await hasher.verify(storedDigest, password).catch(() => false);
  return { ok, needsRehash: ok && hasher.needsRehash(storedDigest) };
}

/** Whether a stored digest is argon2id at today's parameters, as hashPassword makes them. */
export function isCurrentDigest(storedDigest: string): boolean {
  return argon2idHasher.recognizes(storedDigest) && !argon2idHasher.needsRehash(storedDigest);
}

/**
 * An imported digest as it is stored, or why it is refused: the named hasher must
 * recognize it (a bcrypt digest named `sha256` is refused, not guessed at).
 */
export function importedDigest(hasher: PasswordHasherName, digest: string, extras: DigestExtras): { ok: true; stored: string } | { ok: false; detail: string } {
  const scheme = BY_NAME.get(hasher);
  if (!scheme) return { ok: false, detail: `names an unknown hasher: ${hasher}` };
  return scheme.normalize(digest, extras);
}
