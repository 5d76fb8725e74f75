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

  it.each([
    ["o'Brien+tag@Example.com", "o'brien+tag@example.com"],
    ["a.b-c_d!#$%&*/=?^`{|}~@sub.example.co.uk", "a.b-c_d!#$%&*/=?^`{|}~@sub.example.co.uk"],
    ["Ünïcode.😀@例え.テスト", "ünïcode.😀@xn--r8jz45g.xn--zckzah"],
    ["x@1.example.com", "x@1.example.com"],
  ])("accepts the mailbox %j", (input, expected) => {
    expect(emailSchema.parse(input)).toBe(expected);
  });

  // Regression: the check accepted any local part without whitespace, @ or a double
  // quote, so `a,b@x.com` or `a(comment)@x.com` were stored and handed to transports,
  // which may read them as a list of recipients or a comment (RFC 5322).
  it.each([
    "a@x.com,b@y.com",
    '"a,b"@x.com',
    "a(comment)@x.com",
    "<a@x.com>",
    "a@x.com;b@y.com",
    "a b@x.com",
    "a,b@x.com",
    "a;b@x.com",
    "a:b@x.com",
    "a<b@x.com",
    "a>@x.com",
    "a\\b@x.com",
    "a[b]@x.com",
    '"a"@x.com',
    "a..b@x.com",
    ".a@x.com",
    "a.@x.com",
    "a\u200bb@x.com",
    "a\u00a0b@x.com",
    "a\u202eb@x.com",
    "a\uff0cb@x.com",
    "a\tb@x.com",
    "a@x,y.com",
    "a@x_y.com",
    "a@(x).com",
    "a@x.com)",
    "a@-x.com",
    "a@x.com.",
    "a@localhost",
    "a@1.2.3.4",
    "a@[1.2.3.4]",
    `${"\u00e9".repeat(33)}@example.com`,
  ])("refuses the RFC 5321 non-mailbox %j", (input) => {
    expect(emailSchema.safeParse(input).success).toBe(false);
  });
});
