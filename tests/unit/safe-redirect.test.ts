import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnvironmentContext } from "@/lib/environments/context";
import { defaultSettings } from "@/lib/environments/settings";
import { linkBase } from "@/lib/environments/environment-links";
import { safeRedirect } from "@/lib/http/safe-redirect";

const environment: EnvironmentContext = {
  id: "00000000-0000-4000-8000-000000000001",
  applicationId: "00000000-0000-4000-8000-000000000002",
  name: "Good",
  kind: "development",
  publishableKey: "pk_test_x",
  frontendHosts: ["auth.good.com"],
  allowedOrigins: ["https://good.com", "myapp://callback"],
  settings: { ...defaultSettings("Good"), branding: { ...defaultSettings("Good").branding, homeUrl: "https://good.com/home" } },
};

/** The flow arrived on the environment's own frontend host. */
const base = { origin: "https://auth.good.com", publishableKey: null };

describe("safeRedirect", () => {
  // A deployment as production runs it: frontend hosts are https origins.
  const savedPublicUrl = process.env.PUBLIC_URL;
  beforeAll(() => {
    process.env.PUBLIC_URL = "https://gatehouse.good.com";
  });
  afterAll(() => {
    if (savedPublicUrl === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = savedPublicUrl;
  });

  it.each([
    "https://good.com/after?x=1",
    "HTTPS://GOOD.COM/Mixed/Case",
    "https://auth.good.com/welcome",
    "myapp://callback/done",
    "/account",
    "https://gatehouse.good.com/account",
  ])("accepts %s", (target) => {
    expect(safeRedirect(target, environment, base).accepted).toBe(true);
  });

  it.each([
    "//evil.com",
    "///evil.com",
    "https://evil.com@good.com",
    "https://good.com@evil.com",
    "https://good.com.evil.com",
    "https://evilgood.com",
    "http://good.com",
    "https://good.com:444",
    "https:\\\\evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "https://good.com%2F@evil.com",
    "%2F%2Fevil.com",
    "/%2F/evil.com",
    "/\t/evil.com",
    " https://evil.com",
    "https://evil.com\n",
    "myapp://evil",
    "otherapp://callback",
    "evil.com",
    "https://xn--gd-1ia.com",
    // Regression: a frontend host is one origin, PUBLIC_URL's scheme on exactly that host:port.
    "http://auth.good.com/welcome",
    "https://auth.good.com:9999/welcome",
    "http://auth.good.com:9999/welcome",
  ])("refuses %s and falls back to the home URL", (target) => {
    const decision = safeRedirect(target, environment, base);
    expect(decision.accepted).toBe(false);
    expect(decision.url).toBe("https://good.com/home");
  });

  it("falls back, accepted, when nothing is requested", () => {
    expect(safeRedirect(undefined, environment, base)).toEqual({ url: "https://good.com/home", accepted: true });
  });

  it("regression (issue 7 item 13): a path and the fallback stay on the host the flow arrived on, not on PUBLIC_URL", () => {
    const plain = { ...environment, settings: defaultSettings("Good") };
    expect(safeRedirect("/account?tab=1", plain, base)).toEqual({ url: "https://auth.good.com/account?tab=1", accepted: true });
    expect(safeRedirect("https://evil.com", plain, base)).toEqual({ url: "https://auth.good.com/account", accepted: false });
    expect(safeRedirect(null, plain, base).url).toBe("https://auth.good.com/account");
  });
});

describe("linkBase", () => {
  const previous = process.env.PUBLIC_URL;
  const plain = { ...environment, frontendHosts: ["auth.good.com", "acme.localhost:4000"] };

  it("keeps a frontend host (with PUBLIC_URL's scheme) and uses PUBLIC_URL with pk for any other host", () => {
    process.env.PUBLIC_URL = "https://gatehouse.example.net";
    try {
      expect(linkBase(plain, "auth.good.com")).toEqual({ origin: "https://auth.good.com", publishableKey: null });
      expect(linkBase(plain, "ACME.localhost:4000")).toEqual({ origin: "https://acme.localhost:4000", publishableKey: null });
      expect(linkBase(plain, "gatehouse.example.net")).toEqual({ origin: "https://gatehouse.example.net", publishableKey: "pk_test_x" });
      expect(linkBase(plain, "evil.com")).toEqual({ origin: "https://gatehouse.example.net", publishableKey: "pk_test_x" });
      // Review finding: the origin is the stored entry's, so a client-chosen port never reaches a link (nor breaks URL parsing).
      expect(linkBase(plain, "auth.good.com:8443")).toEqual({ origin: "https://auth.good.com", publishableKey: null });
      expect(linkBase(plain, "auth.good.com:99999")).toEqual({ origin: "https://auth.good.com", publishableKey: null });
      // No request (background work): the environment's first frontend host.
      expect(linkBase(plain, null)).toEqual({ origin: "https://auth.good.com", publishableKey: null });
    } finally {
      if (previous === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = previous;
    }
  });
});
