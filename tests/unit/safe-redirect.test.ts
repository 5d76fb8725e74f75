import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnvironmentContext } from "@/lib/environments/context";
import { defaultSettings } from "@/lib/environments/settings";
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
    expect(safeRedirect(target, environment).accepted).toBe(true);
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
    const decision = safeRedirect(target, environment);
    expect(decision.accepted).toBe(false);
    expect(decision.url).toBe("https://good.com/home");
  });

  it("falls back, accepted, when nothing is requested", () => {
    expect(safeRedirect(undefined, environment)).toEqual({ url: "https://good.com/home", accepted: true });
  });
});
