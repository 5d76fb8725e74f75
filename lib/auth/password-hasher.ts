import { hash, verify } from "@node-rs/argon2";

/** `Algorithm.Argon2id`; the package exports a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** OWASP's argon2id baseline: m=19 MiB, t=2, p=1. Runs on the libuv pool, off the event loop. */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}
