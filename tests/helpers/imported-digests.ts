import { createCipheriv, createHash, pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { hash } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import type { FirebaseScryptConfig, PasswordHasherName } from "@/lib/auth/password-hasher";

/** A small Firebase project's scrypt parameters (memCost 10 keeps tests fast). */
export const FIREBASE_CONFIG: FirebaseScryptConfig = {
  signerKey: randomBytes(64).toString("base64"),
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 10,
};

export interface ForeignDigest {
  passwordHasher: PasswordHasherName;
  passwordDigest: string;
  passwordSalt?: string;
}

/** What Firebase's export holds for a password: the signer key encrypted under scrypt(password, salt ‖ separator). */
export function firebaseScryptDigest(password: string, salt: Buffer, config: FirebaseScryptConfig): string {
  const key = scryptSync(password, Buffer.concat([salt, Buffer.from(config.saltSeparator, "base64")]), 32, {
    N: 2 ** config.memCost,
    r: config.rounds,
    p: 1,
    maxmem: 256 * 1024 * 1024,
  });
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(config.signerKey, "base64")), cipher.final()]).toString("base64");
}

/** The password hashed by each supported hasher, with the real libraries. */
export async function foreignDigests(password: string): Promise<ForeignDigest[]> {
  const salt = randomBytes(12);
  const djangoSalt = randomBytes(9).toString("hex");
  const shaSalt = randomBytes(8).toString("hex");
  return [
    { passwordHasher: "bcrypt", passwordDigest: bcrypt.hashSync(password, 4) },
    { passwordHasher: "bcrypt", passwordDigest: bcrypt.hashSync(password, 4).replace(/^\$2b\$/, "$2y$") },
    { passwordHasher: "argon2i", passwordDigest: await hash(password, { algorithm: 1, memoryCost: 4096, timeCost: 3 }) },
    { passwordHasher: "argon2id", passwordDigest: await hash(password, { algorithm: 2, memoryCost: 8192, timeCost: 1 }) },
    {
      passwordHasher: "pbkdf2_sha256",
      passwordDigest: `pbkdf2_sha256$1000$${djangoSalt}$${pbkdf2Sync(password, djangoSalt, 1000, 32, "sha256").toString("base64")}`,
    },
    { passwordHasher: "sha256", passwordDigest: `sha256$${shaSalt}$${createHash("sha256").update(shaSalt + password).digest("hex")}` },
    { passwordHasher: "scrypt_firebase", passwordDigest: firebaseScryptDigest(password, salt, FIREBASE_CONFIG), passwordSalt: salt.toString("base64") },
  ];
}
