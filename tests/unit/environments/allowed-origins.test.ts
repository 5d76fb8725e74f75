import { describe, expect, it } from "vitest";
import { allowedOriginsBody, normalizeOrigin } from "@/lib/environments/allowed-origins";

describe("normalizeOrigin", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com"],
    ["HTTPS://App.Example.COM", "https://app.example.com"],
    ["https://app.example.com/", "https://app.example.com"],
    ["https://app.example.com:443", "https://app.example.com"],
    ["http://app.example.com:80", "http://app.example.com"],
    ["https://app.example.com:8443", "https://app.example.com:8443"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["  https://padded.example.com\t", "https://padded.example.com"],
    ["https://bücher.de", "https://xn--bcher-kva.de"],
    ["http://127.0.0.1:5173", "http://127.0.0.1:5173"],
    ["http://[::1]:3000", "http://[::1]:3000"],
    ["myapp://callback", "myapp://callback"],
    ["MyApp://CallBack", "myapp://callback"],
    ["com.example.app://auth", "com.example.app://auth"],
    ["chrome-extension://abcdefghijklmnop", "chrome-extension://abcdefghijklmnop"],
    ["exp://192.168.0.10:19000", "exp://192.168.0.10:19000"],
  ])("%j → %j", (input, expected) => {
    expect(normalizeOrigin(input)).toBe(expected);
  });

  it.each([
    "https://app.example.com/path",
    "https://app.example.com/path/",
    "https://app.example.com?q=1",
    "https://app.example.com#frag",
    "https://user@app.example.com",
    "https://user:pass@app.example.com",
    "javascript:alert(1)",
    "javascript://app.example.com",
    "JAVASCRIPT://x",
    "data://text/html",
    "data:text/html,<script>",
    "vbscript://x",
    "file://localhost",
    "file:///etc/passwd",
    "blob://x",
    "about://blank",
    "app.example.com",
    "//app.example.com",
    "https://",
    "https:///",
    "https://app.example.com:99999",
    "https://app example.com",
    "https://app.example.com\\@evil.com",
    "1http://x",
    "",
    "   ",
  ])("refuses %j", (input) => {
    expect(normalizeOrigin(input)).toBeNull();
  });
});

describe("allowedOriginsBody", () => {
  it("normalises and deduplicates, keeping first positions", () => {
    expect(allowedOriginsBody.parse({ origins: ["https://b.example.com", "HTTPS://A.example.com:443", "https://b.example.com/", "https://a.example.com"] })).toEqual({
      origins: ["https://b.example.com", "https://a.example.com"],
    });
  });

  it("names every bad entry by index", () => {
    const result = allowedOriginsBody.safeParse({ origins: ["https://ok.example.com", "javascript:alert(1)", "https://x.example.com/p"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["origins.1", "origins.2"]);
  });

  it("caps the list at 100 entries and refuses unknown keys", () => {
    const many = Array.from({ length: 101 }, (_, i) => `https://a${i}.example.com`);
    expect(allowedOriginsBody.safeParse({ origins: many }).success).toBe(false);
    expect(allowedOriginsBody.safeParse({ origins: many.slice(0, 100) }).success).toBe(true);
    expect(allowedOriginsBody.safeParse({ origins: [], more: 1 }).success).toBe(false);
  });
});
