/**
 * One password-hashing scheme a stored digest may be in (lib/auth/password-hasher.ts
 * holds the registry). Argon2id is the only scheme new passwords are hashed with;
 * the others exist so imported users keep their passwords until their first sign-in.
 */
export interface Hasher {
  /** The `passwordHasher` name of the import API. */
  name: PasswordHasherName;
  /** Whether a stored digest is in this scheme's format (the registry is keyed by format). */
  recognizes(digest: string): boolean;
  /**
   * The digest as stored, or why it is refused. Checked at import so that a digest
   * that could never verify, or would cost too much to verify, is refused then.
   */
  normalize(digest: string, extras: DigestExtras): { ok: true; stored: string } | { ok: false; detail: string };
  /** Whether the password matches; false (never a throw) for a digest it cannot read. */
  verify(stored: string, password: string): Promise<boolean>;
  /** Whether a verified digest should be replaced by a fresh argon2id one. */
  needsRehash(stored: string): boolean;
}

export const PASSWORD_HASHERS = ["bcrypt", "argon2i", "argon2id", "scrypt_firebase", "pbkdf2_sha256", "sha256"] as const;
export type PasswordHasherName = (typeof PASSWORD_HASHERS)[number];

/** Firebase's project-wide scrypt parameters (Authentication → Users → Password hash parameters). */
export interface FirebaseScryptConfig {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

/** What some schemes need beside the digest: a per-user salt and project parameters. */
export interface DigestExtras {
  passwordSalt?: string;
  hasherConfig?: { scrypt_firebase?: FirebaseScryptConfig };
}

export const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Strict base64: the bytes, or null unless the text is canonical base64 of at least
 * `minBytes` bytes (a length that is a multiple of 4, and encoding the bytes gives the
 * text back). Node's own decoder accepts anything and drops what it cannot read, so
 * `"A"` decodes to nothing: a digest field that decodes to nothing would compare equal
 * to a computation that yields nothing.
 */
export function strictBase64(text: string, minBytes: number): Buffer | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const bytes = Buffer.from(text, "base64");
  return bytes.length >= minBytes && bytes.toString("base64") === text ? bytes : null;
}
