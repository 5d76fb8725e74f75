import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A URL-safe random string carrying `bytes` bytes of CSPRNG entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * Lookup hash for high-entropy secrets (session tokens, API keys). A fast hash is
 * right here: the input has 256 bits of entropy, so there is nothing to brute-force.
 */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time string comparison; lengths are compared first, which leaks only the length. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
