import * as OTPAuth from "otpauth";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { isTotpCode, matchTotpStep, newTotpSecret, TOTP_PERIOD_SECONDS, totpProvisioning } from "@/lib/mfa/totp";

/** RFC 6238 Appendix B: the SHA-1 secret is the ASCII "12345678901234567890". */
const RFC_SECRET = OTPAuth.Secret.fromLatin1("12345678901234567890").base32;
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

const step = (seconds: number) => Math.floor(seconds / TOTP_PERIOD_SECONDS);

describe("TOTP (RFC 6238)", () => {
  it.each(RFC_VECTORS)("the test vector at T = %i: the generator gives %s at 8 digits, and its last 6 digits match that step", async (time, expected) => {
    expect(await generate({ secret: RFC_SECRET, epoch: time, digits: 8 })).toBe(expected);
    expect(await matchTotpStep(RFC_SECRET, expected.slice(2), { nowSeconds: time })).toBe(step(time));
  });

  it("accepts a code of the step before and after server time, and none further off", async () => {
    const secret = newTotpSecret();
    // Mid-step, so each offset lands squarely in its own step.
    const now = 1_800_000_015;
    for (const offset of [-2, -1, 0, 1, 2]) {
      const code = await generate({ secret, epoch: now + offset * TOTP_PERIOD_SECONDS });
      const matched = await matchTotpStep(secret, code, { nowSeconds: now });
      expect(matched, `offset ${offset}`).toBe(Math.abs(offset) <= 1 ? step(now) + offset : null);
    }
  });

  it("skips steps up to the last one spent, so a used code does not even reach the database", async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015;
    const current = await generate({ secret, epoch: now });
    expect(await matchTotpStep(secret, current, { nowSeconds: now, afterStep: step(now) - 1 })).toBe(step(now));
    expect(await matchTotpStep(secret, current, { nowSeconds: now, afterStep: step(now) })).toBeNull();
    const next = await generate({ secret, epoch: now + TOTP_PERIOD_SECONDS });
    expect(await matchTotpStep(secret, next, { nowSeconds: now, afterStep: step(now) })).toBe(step(now) + 1);
  });

  it("reads codes as apps show them (spaces), and refuses anything but 6 digits without throwing", async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015;
    const code = await generate({ secret, epoch: now });
    expect(await matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, { nowSeconds: now })).toBe(step(now));
    for (const hostile of ["", "12345", "1234567", "abcdef", "12345\u0000", "١٢٣٤٥٦", "-12345", "1e5000"]) {
      expect(await matchTotpStep(secret, hostile, { nowSeconds: now }), hostile).toBeNull();
    }
    expect(isTotpCode("123 456")).toBe(true);
    expect(isTotpCode("abcde-12345")).toBe(false);
  });

  it("makes 160-bit Base32 secrets, a fresh one each time", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(OTPAuth.Secret.fromBase32(secret).bytes).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it("its otpauth:// URI, read by the independent otpauth package, yields codes it accepts", async () => {
    const secret = newTotpSecret();
    const { otpauthUri, qrCodeSvg } = totpProvisioning(secret, "Acme Cloud", "ada@example.com");
    const parsed = OTPAuth.URI.parse(otpauthUri);
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect(parsed.issuer).toBe("Acme Cloud");
    expect(parsed.label).toBe("ada@example.com");
    const totp = parsed as OTPAuth.TOTP;
    expect(totp.period).toBe(30);
    expect(totp.digits).toBe(6);
    expect(totp.algorithm).toBe("SHA1");
    const now = 1_800_000_015;
    const code = totp.generate({ timestamp: now * 1000 });
    expect(await matchTotpStep(secret, code, { nowSeconds: now })).toBe(step(now));

    expect(qrCodeSvg.startsWith("data:image/svg+xml;base64,")).toBe(true);
    const svg = Buffer.from(qrCodeSvg.slice("data:image/svg+xml;base64,".length), "base64").toString("utf8");
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});
