import { afterEach, describe, expect, it } from "vitest";
import { productionStartProblem } from "@/lib/config/production-checks";

const GOOD_SECRET = "k3Jq9vX2mP8wR5tY7uI0oL4aS6dF1gH3jK5lZ8xC0vB2nM4q";

describe("productionStartProblem", () => {
  const savedMode = process.env.GATEHOUSE_MODE;
  afterEach(() => {
    if (savedMode === undefined) delete process.env.GATEHOUSE_MODE;
    else process.env.GATEHOUSE_MODE = savedMode;
  });

  function inProduction() {
    process.env.GATEHOUSE_MODE = "production";
  }

  it("lets development start without any configuration", () => {
    process.env.GATEHOUSE_MODE = "development";
    expect(productionStartProblem({})).toBeNull();
  });

  it.each([
    [{ PUBLIC_URL: "https://auth.example.com" }, /not set/],
    [{ GATEHOUSE_SECRET: "short", PUBLIC_URL: "https://auth.example.com" }, /at least 32/],
    [{ GATEHOUSE_SECRET: "replace-me-with-32-random-bytes-of-base64", PUBLIC_URL: "https://auth.example.com" }, /example value/],
  ])("refuses a missing, short or example secret (%o)", (env, reason) => {
    inProduction();
    expect(productionStartProblem(env)).toMatch(reason);
  });

  it("refuses a PUBLIC_URL that is not https", () => {
    inProduction();
    expect(productionStartProblem({ GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "http://auth.example.com" })).toMatch(/https/);
  });

  it("refuses a missing PUBLIC_URL", () => {
    inProduction();
    expect(productionStartProblem({ GATEHOUSE_SECRET: GOOD_SECRET })).toMatch(/PUBLIC_URL/);
  });

  it("regression: refuses the outbox transport (the default) unless DEV_MAILBOX=1 says so on purpose", () => {
    inProduction();
    const base = { GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "https://auth.example.com" };
    expect(productionStartProblem(base)).toMatch(/^EMAIL_TRANSPORT is outbox/);
    expect(productionStartProblem({ ...base, EMAIL_TRANSPORT: "outbox" })).toMatch(/DEV_MAILBOX=1/);
    expect(productionStartProblem({ ...base, EMAIL_TRANSPORT: "outbox", DEV_MAILBOX: "true" })).toMatch(/EMAIL_TRANSPORT/);
    expect(productionStartProblem({ ...base, DEV_MAILBOX: "1", TRUSTED_PROXY_HOPS: "0" })).toBeNull();
  });

  it("regression: refuses DEV_MAILBOX=1 unless TRUSTED_PROXY_HOPS is set (a proxy on this host would make the internet look local to the mailbox)", () => {
    inProduction();
    const base = { GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "https://auth.example.com", DEV_MAILBOX: "1" };
    for (const transport of [{}, { EMAIL_TRANSPORT: "smtp" }]) {
      for (const unset of [{}, { TRUSTED_PROXY_HOPS: "" }, { TRUSTED_PROXY_HOPS: "  " }]) {
        const problem = productionStartProblem({ ...base, ...transport, ...unset });
        expect(problem, JSON.stringify(unset)).toMatch(/^DEV_MAILBOX=1 .*TRUSTED_PROXY_HOPS/);
        expect(problem).not.toContain("\n");
      }
      // An explicit 0 is a statement that no proxy stands in front.
      expect(productionStartProblem({ ...base, ...transport, TRUSTED_PROXY_HOPS: "0" })).toBeNull();
      expect(productionStartProblem({ ...base, ...transport, TRUSTED_PROXY_HOPS: "1" })).toBeNull();
    }
  });

  it("refuses a TRUSTED_PROXY_HOPS that is not a whole number", () => {
    inProduction();
    const base = { GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "https://auth.example.com", EMAIL_TRANSPORT: "smtp" };
    expect(productionStartProblem({ ...base, TRUSTED_PROXY_HOPS: "two" })).toMatch(/TRUSTED_PROXY_HOPS/);
    expect(productionStartProblem({ ...base, TRUSTED_PROXY_HOPS: "2" })).toBeNull();
  });

  it("starts with a strong secret, an https PUBLIC_URL and a real email transport", () => {
    inProduction();
    expect(productionStartProblem({ GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "https://auth.example.com", EMAIL_TRANSPORT: "smtp" })).toBeNull();
    expect(productionStartProblem({ GATEHOUSE_SECRET: GOOD_SECRET, PUBLIC_URL: "https://auth.example.com", EMAIL_TRANSPORT: "resend" })).toBeNull();
  });
});
