import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mfaFlowSetCookie, pendingMfaFlow, pendingResetEmail, pendingSignUp } from "@/lib/hosted/flow-cookies";

/* The flow cookies as a hosted page reads them: next/headers stands in with Next's own cookie parser over the request's Cookie header. */

const browser = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => browser.headers,
  cookies: async () => new RequestCookies(browser.headers),
}));

const ENVIRONMENT = "env_flow_cookies";
const cookie = (name: string, value: unknown) => `${name}=${encodeURIComponent(JSON.stringify(value))}`;
const send = (...pairs: string[]) => {
  browser.headers = new Headers({ cookie: pairs.join("; "), host: "auth.example.test" });
};

const mine = {
  gh_mfa: { environmentId: ENVIRONMENT, kind: "second_factor", token: "victim-mfa-token", factors: ["totp"] },
  gh_reset: { environmentId: ENVIRONMENT, email: "victim@example.com" },
  gh_sign_up: { environmentId: ENVIRONMENT, token: "victim-sign-up-token", email: "victim@example.com", sentAt: 1_700_000_000 },
};
const planted = {
  gh_mfa: { environmentId: ENVIRONMENT, kind: "second_factor", token: "attacker-mfa-token", factors: ["totp"] },
  gh_reset: { environmentId: ENVIRONMENT, email: "attacker@example.com" },
  gh_sign_up: { environmentId: ENVIRONMENT, token: "attacker-sign-up-token", email: "attacker@example.com", sentAt: 1_700_000_000 },
};

const readers = {
  gh_mfa: async () => (await pendingMfaFlow(ENVIRONMENT, "second_factor"))?.token ?? null,
  gh_reset: () => pendingResetEmail(ENVIRONMENT),
  gh_sign_up: async () => (await pendingSignUp(ENVIRONMENT))?.token ?? null,
};

const NAMES = ["gh_mfa", "gh_reset", "gh_sign_up"] as const;

describe("flow cookies", () => {
  beforeEach(() => {
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    send();
  });
  afterEach(() => vi.unstubAllEnvs());

  it.each(NAMES)("%s presented once is read", async (name) => {
    send(cookie(name, mine[name]), "__gh_session_hint=1");
    expect(await readers[name]()).toBe(name === "gh_reset" ? "victim@example.com" : mine[name].token);
  });

  it.each(NAMES)(
    "regression: %s presented twice (one planted by a sibling subdomain) counts as absent, whichever comes first",
    async (name) => {
      send(cookie(name, mine[name]), cookie(name, planted[name]));
      expect(await readers[name]()).toBeNull();
      send(cookie(name, planted[name]), cookie(name, mine[name]));
      expect(await readers[name]()).toBeNull();
      send(cookie(name, mine[name]), `${name}=`);
      expect(await readers[name]()).toBeNull();
    },
  );

  it.each(NAMES)("regression: on https a single plain %s (a sibling subdomain can plant one) was read; now only the __Host- name counts", async (name) => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test");
    send(cookie(name, planted[name]));
    expect(await readers[name]()).toBeNull();
    send(cookie(`__Host-${name}`, mine[name]), cookie(name, planted[name]));
    expect(await readers[name]()).toBe(name === "gh_reset" ? "victim@example.com" : mine[name].token);
    // The duplicate refusal holds for the __Host- name too.
    send(cookie(`__Host-${name}`, mine[name]), cookie(`__Host-${name}`, planted[name]));
    expect(await readers[name]()).toBeNull();
  });

  it.each(NAMES)("over plain http %s keeps its plain name, and a __Host- one is not read", async (name) => {
    send(cookie(`__Host-${name}`, mine[name]));
    expect(await readers[name]()).toBeNull();
  });

  it("a request that arrived over https (X-Forwarded-Proto) reads the __Host- name even under an http PUBLIC_URL, as the writer names it", async () => {
    browser.headers = new Headers({ cookie: [cookie("gh_mfa", planted.gh_mfa), cookie("__Host-gh_mfa", mine.gh_mfa)].join("; "), "x-forwarded-proto": "https" });
    expect(await readers.gh_mfa()).toBe("victim-mfa-token");
  });

  it("gh_mfa is set as __Host-gh_mfa (Secure, Path=/, no Domain) on https, as gh_mfa over plain http", () => {
    const flow = { environmentId: ENVIRONMENT, kind: "enrollment", token: "t" } as const;
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test");
    const secure = mfaFlowSetCookie(new Request("https://auth.example.test/"), flow);
    expect(secure).toMatch(/^__Host-gh_mfa=/);
    expect(secure).toMatch(/; Path=\/(;|$)/);
    expect(secure).toMatch(/; Secure/);
    expect(secure).not.toMatch(/Domain=/i);
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    expect(mfaFlowSetCookie(new Request("http://localhost:3000/"), flow)).toMatch(/^gh_mfa=/);
  });
});
