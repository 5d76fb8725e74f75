import { describe, expect, it } from "vitest";
import { expectProblem, problemFields } from "../helpers/api";
import { newEnvironment } from "../helpers/fixtures";

describe("GET /api/server/v1/allowed-origins", () => {
  it("starts empty", async () => {
    const { api } = await newEnvironment();
    const res = await api.get("/allowed-origins");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({ origins: [] });
  });
});

describe("PUT /api/server/v1/allowed-origins", () => {
  it("stores the list and GET returns it", async () => {
    const { api } = await newEnvironment();
    const origins = ["https://app.example.com", "http://localhost:3000"];
    const res = await api.put("/allowed-origins", { origins });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ origins });
    expect((await api.get("/allowed-origins")).body).toEqual({ origins });
  });

  it("normalises: lower case, default port dropped, trailing slash removed, IDN in ASCII", async () => {
    const { api } = await newEnvironment();
    const res = await api.put("/allowed-origins", {
      origins: [
        "HTTPS://App.Example.COM",
        "https://secure.example.com:443",
        "http://plain.example.com:80/",
        "http://localhost:8080",
        "  https://padded.example.com  ",
        "https://bücher.de",
        "http://[::1]:3000",
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.origins).toEqual([
      "https://app.example.com",
      "https://secure.example.com",
      "http://plain.example.com",
      "http://localhost:8080",
      "https://padded.example.com",
      "https://xn--bcher-kva.de",
      "http://[::1]:3000",
    ]);
  });

  it("deduplicates after normalising, keeping the first position", async () => {
    const { api } = await newEnvironment();
    const res = await api.put("/allowed-origins", {
      origins: ["https://a.example.com", "https://B.example.com", "HTTPS://A.EXAMPLE.COM:443/", "https://b.example.com", "https://a.example.com"],
    });
    expect(res.body.origins).toEqual(["https://a.example.com", "https://b.example.com"]);
  });

  it("accepts non-http schemes for native apps and extensions", async () => {
    const { api } = await newEnvironment();
    const origins = ["myapp://callback", "com.example.app://auth", "chrome-extension://abcdefghijklmnop", "capacitor://localhost", "exp://192.168.0.10:19000"];
    const res = await api.put("/allowed-origins", { origins });
    expect(res.status).toBe(200);
    expect(res.body.origins).toEqual(origins);
  });

  it("replaces the list as a whole, and an empty list clears it", async () => {
    const { api } = await newEnvironment();
    await api.put("/allowed-origins", { origins: ["https://one.example.com", "https://two.example.com"] });
    const replaced = await api.put("/allowed-origins", { origins: ["https://three.example.com"] });
    expect(replaced.body).toEqual({ origins: ["https://three.example.com"] });
    expect((await api.get("/allowed-origins")).body).toEqual({ origins: ["https://three.example.com"] });
    expect((await api.put("/allowed-origins", { origins: [] })).body).toEqual({ origins: [] });
    expect((await api.get("/allowed-origins")).body).toEqual({ origins: [] });
  });

  it.each([
    ["a path", "https://app.example.com/callback"],
    ["a query", "https://app.example.com?x=1"],
    ["a fragment", "https://app.example.com#top"],
    ["credentials", "https://user:pass@app.example.com"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: with slashes", "javascript://app.example.com"],
    ["JavaScript: in mixed case", "JaVaScRiPt://evil"],
    ["data:", "data://text/html,<script>alert(1)</script>"],
    ["file:", "file://localhost"],
    ["vbscript:", "vbscript://x"],
    ["blob:", "blob://app.example.com"],
    ["no scheme", "app.example.com"],
    ["a scheme-relative URL", "//app.example.com"],
    ["an empty string", ""],
    ["only spaces", "   "],
    ["an out-of-range port", "https://app.example.com:99999"],
    ["a space in the host", "https://app example.com"],
    ["a backslash", "https://app.example.com\\@evil.com"],
    ["a scheme without host", "myapp://"],
    ["a bare word", "null"],
  ])("refuses %s with invalid_request naming the entry", async (_label, origin) => {
    const { api } = await newEnvironment();
    await api.put("/allowed-origins", { origins: ["https://kept.example.com"] });
    const res = await api.put("/allowed-origins", { origins: ["https://fine.example.com", origin] });
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toEqual(["origins.1"]);
    // Nothing was replaced.
    expect((await api.get("/allowed-origins")).body).toEqual({ origins: ["https://kept.example.com"] });
  });

  it("lists every bad entry at once", async () => {
    const { api } = await newEnvironment();
    const res = await api.put("/allowed-origins", { origins: ["https://ok.example.com/path", "https://ok.example.com", "javascript:alert(1)"] });
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toEqual(["origins.0", "origins.2"]);
  });

  it("accepts 100 origins and refuses 101", async () => {
    const { api } = await newEnvironment();
    const hundred = Array.from({ length: 100 }, (_, i) => `https://app${i}.example.com`);
    expect((await api.put("/allowed-origins", { origins: hundred })).body.origins).toHaveLength(100);
    const res = await api.put("/allowed-origins", { origins: [...hundred, "https://one-more.example.com"] });
    expectProblem(res, 400, "invalid_request");
    expect((await api.get("/allowed-origins")).body.origins).toHaveLength(100);
  });

  it("refuses a body of the wrong shape", async () => {
    const { api } = await newEnvironment();
    for (const body of [
      {},
      { origins: null },
      { origins: "https://app.example.com" },
      { origins: [42] },
      { origins: [{ origin: "https://app.example.com" }] },
      { origins: [], extra: true },
      ["https://app.example.com"],
      { origins: [`https://${"a".repeat(2050)}.com`] },
    ]) {
      expectProblem(await api.put("/allowed-origins", body), 400, "invalid_request");
    }
    expect((await api.get("/allowed-origins")).body).toEqual({ origins: [] });
  });

  it("refuses a missing body", async () => {
    const { api } = await newEnvironment();
    const res = await api.raw("PUT", "/allowed-origins");
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toContain("origins");
  });

  it("keeps each environment's list to itself", async () => {
    const a = await newEnvironment();
    const b = await newEnvironment();
    await a.api.put("/allowed-origins", { origins: ["https://a.example.com"] });
    await b.api.put("/allowed-origins", { origins: ["https://b.example.com"] });
    expect((await a.api.get("/allowed-origins")).body).toEqual({ origins: ["https://a.example.com"] });
    expect((await b.api.get("/allowed-origins")).body).toEqual({ origins: ["https://b.example.com"] });
  });
});
