import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnvironmentContext } from "@/lib/environments/context";
import { defaultSettings } from "@/lib/environments/settings";
import { linkBase } from "@/lib/environments/environment-links";
import { safeRedirect } from "@/lib/flows/safe-redirect";

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
    "https://gatehouse.good.com/account?pk=pk_test_x",
    "https://auth.good.com/sign-in?pk=pk_test_x",
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

  it("regression (finding 6): PUBLIC_URL serves every environment, so a target there must name this one", () => {
    const onPublicUrl = { origin: "https://gatehouse.good.com", publishableKey: "pk_test_x" };
    for (const flowBase of [base, onPublicUrl]) {
      for (const other of [
        "https://gatehouse.good.com/sign-in?pk=pk_test_other",
        "https://gatehouse.good.com/sign-in?pk=pk_test_x&pk=pk_test_other",
        "https://gatehouse.good.com/sign-in?p%6B=pk_test_other",
        // pk picks the environment before the Host, on a frontend host too.
        "https://auth.good.com/sign-in?pk=pk_test_other",
        "/sign-in?pk=pk_test_other",
      ]) {
        expect(safeRedirect(other, environment, flowBase), other).toEqual({ url: "https://good.com/home", accepted: false });
      }
      expect(safeRedirect("https://gatehouse.good.com/sign-in?pk=pk_test_x", environment, flowBase).accepted).toBe(true);
    }
    // Without pk, PUBLIC_URL shows this environment only to a flow running there (its hosted pages get pk added).
    expect(safeRedirect("https://gatehouse.good.com/account", environment, onPublicUrl).accepted).toBe(true);
    expect(safeRedirect("https://gatehouse.good.com/account", environment, base).accepted).toBe(false);
    // An app's own URLs on an allowed origin are not Gatehouse's: their pk parameter is theirs.
    expect(safeRedirect("https://good.com/product?pk=42", environment, base).accepted).toBe(true);
  });

  it("regression (follow-up finding 3): a flow on PUBLIC_URL ends on PUBLIC_URL only with this environment's pk, set when absent", () => {
    // When PUBLIC_URL's host is also another environment's frontend host, a page without pk shows that environment.
    const onPublicUrl = { origin: "https://gatehouse.good.com", publishableKey: "pk_test_x" };
    for (const [target, expected] of [
      ["https://gatehouse.good.com/forgot-password", "https://gatehouse.good.com/forgot-password?pk=pk_test_x"],
      ["/second-factor", "https://gatehouse.good.com/second-factor?pk=pk_test_x"],
      ["/sign-in?error=oauth_failed", "https://gatehouse.good.com/sign-in?error=oauth_failed&pk=pk_test_x"],
      // The rest of the query keeps its exact spelling; a fragment stays last.
      ["https://gatehouse.good.com/invitations/accept?token=a%20b~c&x", "https://gatehouse.good.com/invitations/accept?token=a%20b~c&x&pk=pk_test_x"],
      ["https://GATEHOUSE.good.com:443/account?#top", "https://gatehouse.good.com/account?pk=pk_test_x#top"],
      // Already naming this environment, in any spelling: left as it is.
      ["https://gatehouse.good.com/account?pk=pk_test_x", "https://gatehouse.good.com/account?pk=pk_test_x"],
      ["/account?p%6B=pk_test_x", "https://gatehouse.good.com/account?p%6B=pk_test_x"],
      // Not Gatehouse's own: an app's URL is not touched.
      ["https://good.com/after?x=1", "https://good.com/after?x=1"],
      ["myapp://callback/done", "myapp://callback/done"],
    ]) {
      expect(safeRedirect(target, environment, onPublicUrl), target).toEqual({ url: expected, accepted: true });
    }
    // Another environment's pk is still refused, not overwritten.
    expect(safeRedirect("/forgot-password?pk=pk_test_other", environment, onPublicUrl).accepted).toBe(false);
    // A home URL on PUBLIC_URL, as the fallback, names this environment too.
    const homeOnPublicUrl = { ...environment, settings: { ...environment.settings, branding: { ...environment.settings.branding, homeUrl: "https://gatehouse.good.com/account" } } };
    expect(safeRedirect("https://evil.com", homeOnPublicUrl, onPublicUrl)).toEqual({ url: "https://gatehouse.good.com/account?pk=pk_test_x", accepted: false });
    expect(safeRedirect(null, homeOnPublicUrl, onPublicUrl).url).toBe("https://gatehouse.good.com/account?pk=pk_test_x");
    // A flow on its own frontend host has no pk to add: its pages pick the environment by that host.
    expect(safeRedirect("/forgot-password", environment, base)).toEqual({ url: "https://auth.good.com/forgot-password", accepted: true });
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
