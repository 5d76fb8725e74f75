import { createHash } from "node:crypto";
import { z } from "zod";
import { safeEqual } from "../crypto/tokens";

/**
 * PKCE for native apps (RFC 7636), S256 only: `plain` would hand the challenge,
 * which travels through the browser and the redirect, the power of the verifier.
 */

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const codeVerifierSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, "A PKCE code verifier: 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~' (RFC 7636 §4.1).");

/** RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) without padding is always 43 characters. */
export const codeChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "An S256 code challenge: 43 base64url characters (RFC 7636 §4.2).");

/** The only `code_challenge_method` accepted. */
export const CODE_CHALLENGE_METHOD = "S256";

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** RFC 7636 §4.6: the verifier matches the challenge it was derived from; compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return codeVerifierSchema.safeParse(verifier).success && safeEqual(s256Challenge(verifier), challenge);
}
