import { describe, expect, it } from "vitest";
import { emailSchema, normalizeEmail } from "@/lib/users/email";

describe("normalizeEmail", () => {
  it.each([
    ["Ada@Example.COM", "ada@example.com"],
    ["ann@bücher.de", "ann@xn--bcher-kva.de"],
    ["Ann@BÜCHER.DE", "ann@xn--bcher-kva.de"],
    ["ann@xn--bcher-kva.de", "ann@xn--bcher-kva.de"],
    ["user@例え.テスト", "user@xn--r8jz45g.xn--zckzah"],
    ["Ünïcode@example.com", "ünïcode@example.com"],
    ["😀@example.com", "😀@example.com"],
    ['"quoted@local"@example.com', '"quoted@local"@example.com'],
  ])("%s → %s", (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it("puts the local part in NFC, so composed and decomposed spellings are one address", () => {
    const decomposed = "jose\u0301@example.com";
    const composed = "jos\u00e9@example.com";
    expect(normalizeEmail(decomposed)).toBe(normalizeEmail(composed));
  });

  it("returns null without a local part, without an @, or with a domain IDNA refuses", () => {
    expect(normalizeEmail("@example.com")).toBeNull();
    expect(normalizeEmail("no-at-sign")).toBeNull();
    expect(normalizeEmail("a@")).toBeNull();
    expect(normalizeEmail("a@xn--.com")).toBeNull();
  });
});

describe("emailSchema", () => {
  it("trims, normalises and accepts Unicode addresses", () => {
    expect(emailSchema.parse("  Ann@Bücher.de ")).toBe("ann@xn--bcher-kva.de");
  });

  it.each(["", "plain", "a b@example.com", "a@b@example.com", "a@exa mple.com", `${"a".repeat(250)}@example.com`, "a@xn--.com"])(
    "refuses %j",
    (input) => {
      expect(emailSchema.safeParse(input).success).toBe(false);
    },
  );
});
