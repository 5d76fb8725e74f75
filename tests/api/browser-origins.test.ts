import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createEnvironment, type CreatedEnvironment } from "@/lib/environments/create-environment";
import { call, serverApi } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/**
 * A frontend host is a whole origin (issue 7, item 6): PUBLIC_URL's scheme on exactly
 * that host and port. A page on another port of the same name, or on plain http next
 * to an https deployment, is another origin and must not ride the tenant's cookies.
 */
describe("frontend hosts compared as full origins", () => {
  const savedPublicUrl = process.env.PUBLIC_URL;
  let env: CreatedEnvironment;
  let email: string;

  beforeAll(async () => {
    process.env.PUBLIC_URL = "https://gatehouse.example.test";
    env = await createEnvironment(getDb(), { name: "Acme", frontendHost: "acme.example.test" });
    email = uniqueEmail();
    expect((await serverApi(env.secretKey).post("/users", { email, password: STRONG_PASSWORD })).status).toBe(201);
  });
  afterAll(() => {
    if (savedPublicUrl === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = savedPublicUrl;
  });

  const loginFrom = (origin: string) => clientApi(env.publishableKey, { headers: { origin } }).post("/auth/login", { email, password: STRONG_PASSWORD });

  it("answers CORS with credentials for the frontend host's own origin", async () => {
    const res = await loginFrom("https://acme.example.test");
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://acme.example.test");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it.each(["http://acme.example.test", "https://acme.example.test:9999", "http://acme.example.test:9999"])(
    "regression: refuses %s, another scheme or port of the frontend host (403 origin_not_allowed, no CORS)",
    async (origin) => {
      const res = await loginFrom(origin);
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe("origin_not_allowed");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      const probe = await call("GET", "/_svc/client", { headers: { "x-api-key": env.publishableKey, origin } });
      expect(probe.headers.get("access-control-allow-origin")).toBeNull();
    },
  );

  it("a host entry with a port means exactly that port", async () => {
    const ported = await createEnvironment(getDb(), { name: "Ported", frontendHost: "ported.example.test:8443" });
    const probe = (origin: string) => call("GET", "/_svc/client", { headers: { "x-api-key": ported.publishableKey, origin } });
    expect((await probe("https://ported.example.test:8443")).headers.get("access-control-allow-origin")).toBe("https://ported.example.test:8443");
    for (const origin of ["https://ported.example.test", "http://ported.example.test:8443"]) {
      expect((await probe(origin)).headers.get("access-control-allow-origin"), origin).toBeNull();
    }
  });
});

describe("environment-dependent public documents", () => {
  it.each(["/.well-known/openid-configuration", "/_svc/.well-known/openid-configuration", "/_svc/.well-known/jwks.json"])(
    "regression: %s varies on Host and X-API-Key (a shared cache must not serve one tenant's document for another)",
    async (path) => {
      const env = await createEnvironment(getDb(), { name: "Cached" });
      const selectors: Record<string, string>[] = [{ host: env.frontendHost }, { "x-api-key": env.publishableKey }];
      for (const headers of selectors) {
        const res = await call("GET", path, { headers });
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get("cache-control")).toMatch(/public/);
        const vary = (res.headers.get("vary") ?? "").split(",").map((name) => name.trim().toLowerCase());
        expect(vary).toEqual(expect.arrayContaining(["host", "x-api-key", "x-forwarded-host", "origin"]));
      }
    },
  );
});
