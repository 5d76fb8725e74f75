import { describe, expect, it } from "vitest";
import { codeChallengeSchema, codeVerifierSchema, s256Challenge, verifierMatches } from "@/lib/tickets/pkce";

// RFC 7636 Appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("PKCE S256 (RFC 7636)", () => {
  it("derives the Appendix B challenge from its verifier and accepts the pair", () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
    expect(verifierMatches(VERIFIER, CHALLENGE)).toBe(true);
  });

  it("refuses another verifier, the plain method (challenge = verifier) and malformed verifiers", () => {
    expect(verifierMatches(`${VERIFIER.slice(0, -1)}B`, CHALLENGE)).toBe(false);
    expect(verifierMatches(VERIFIER, VERIFIER)).toBe(false);
    expect(verifierMatches("", s256Challenge(""))).toBe(false);
    const short = "a".repeat(42);
    expect(verifierMatches(short, s256Challenge(short))).toBe(false);
    const bad = `${"a".repeat(42)} `;
    expect(verifierMatches(bad, s256Challenge(bad))).toBe(false);
  });

  it("verifiers are 43 to 128 unreserved characters; challenges 43 base64url characters", () => {
    expect(codeVerifierSchema.safeParse("a".repeat(43)).success).toBe(true);
    expect(codeVerifierSchema.safeParse("a".repeat(128)).success).toBe(true);
    expect(codeVerifierSchema.safeParse("a".repeat(129)).success).toBe(false);
    expect(codeVerifierSchema.safeParse(`${"a".repeat(42)}~`).success).toBe(true);
    expect(codeChallengeSchema.safeParse(CHALLENGE).success).toBe(true);
    expect(codeChallengeSchema.safeParse(`${CHALLENGE}=`).success).toBe(false);
    expect(codeChallengeSchema.safeParse("plain").success).toBe(false);
  });
});
