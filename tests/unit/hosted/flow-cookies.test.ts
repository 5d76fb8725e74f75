import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { pendingMfaFlow, pendingResetEmail, pendingSignUp } from "@/lib/hosted/flow-cookies";

/* The flow cookies as a hosted page reads them: next/headers stands in with Next's own cookie parser over the request's Cookie header. */

const browser = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => browser.headers,
  cookies: async () => new RequestCookies(browser.headers),
}));

const ENVIRONMENT = "env_flow_cookies";
const cookie = (name: string, value: unknown) => `${name}=${encodeURIComponent(JSON.stringify(value))}`;
const send = (...pairs: string[]) => {
  browser.headers = new Headers({ cookie: pairs.join("; ") });
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

describe("flow cookies", () => {
  beforeEach(() => send());

  it.each(["gh_mfa", "gh_reset", "gh_sign_up"] as const)("%s presented once is read", async (name) => {
    send(cookie(name, mine[name]), "__gh_session_hint=1");
    expect(await readers[name]()).toBe(name === "gh_reset" ? "victim@example.com" : mine[name].token);
  });

  it.each(["gh_mfa", "gh_reset", "gh_sign_up"] as const)(
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
});
