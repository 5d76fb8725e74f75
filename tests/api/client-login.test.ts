import { describe, expect, it } from "vitest";
import { expectProblem } from "../helpers/api";
import { clientApi, signedUpClient } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("POST /_svc/auth/login and /auth/logout", () => {
  it("signs in with the right password, sets the cookie, and logout clears it and revokes the session", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const login = await client.post("/auth/login", { email: email.toUpperCase(), password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ accessToken: expect.stringMatching(/^ey/), session: { status: "ACTIVE" }, user: { email } });
    expect(login.body).not.toHaveProperty("sessionToken");
    expect(client.jar.has("__gh_session")).toBe(true);
    expect((await client.get("/client")).body.authenticated).toBe(true);

    const logout = await client.post("/auth/logout");
    expect(logout.status).toBe(200);
    const cleared = logout.headers.getSetCookie().join("\n");
    expect(cleared).toMatch(/__gh_session=;/);
    expect(cleared).toMatch(/__gh_session_hint=;/);
    expect(client.jar.size).toBe(0);
    const user = (await api.post("/users/search", { email })).body.items[0];
    expect((await api.get(`/users/${user.id}/sessions`)).body.items[0].status).toBe("revoked");
  });

  it("enumeration: unknown email and wrong password give the same 401 body", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const wrong = await client.post("/auth/login", { email, password: "wrong password entirely" });
    const unknown = await client.post("/auth/login", { email: uniqueEmail(), password: "wrong password entirely" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: any) => ({ ...b, requestId: undefined });
    expect(strip(wrong.body)).toEqual(strip(unknown.body));
    expect(wrong.body.code).toBe("invalid_credentials");
  });

  it("banned users get 403 user_banned, deleted users are not found", async () => {
    const { publishableKey, api } = await newEnvironment();
    const banned = uniqueEmail();
    const deleted = uniqueEmail();
    const b = await api.post("/users", { email: banned, password: STRONG_PASSWORD });
    const d = await api.post("/users", { email: deleted, password: STRONG_PASSWORD });
    await api.post(`/users/${b.body.id}/ban`);
    await api.delete(`/users/${d.body.id}`);
    const client = clientApi(publishableKey);
    const res = await client.post("/auth/login", { email: banned, password: STRONG_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("user_banned");
    expect((await client.post("/auth/login", { email: deleted, password: STRONG_PASSWORD })).body.code).toBe("invalid_credentials");
  });

  it("a revoked session is unauthenticated on the very next boot probe", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    expect((await client.get("/client")).body.authenticated).toBe(true);
    await api.delete(`/users/${session.user.id}/sessions/${session.session.id}`);
    const probe = await client.get("/client");
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({ authenticated: false, user: null, organizations: [], activeOrganizationId: null });
    expect((await client.get("/users/me")).status).toBe(401);
  });

  it("a session cookie presented to another environment is ignored", async () => {
    const first = await newEnvironment();
    const second = await newEnvironment();
    const { client } = await signedUpClient(first.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const other = clientApi(second.publishableKey, { headers: { cookie } });
    expect((await other.get("/client")).body.authenticated).toBe(false);
    expect((await other.get("/users/me")).status).toBe(401);
  });

  it("the boot probe answers 200 for an unknown key or host", async () => {
    const res = await clientApi("pk_test_doesnotexistdoesnotexist").get("/client");
    expect(res.status).toBe(200);
    expect(res.body.authenticated).toBe(false);
  });

  it("native login returns a sessionToken usable as a bearer", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const login = await clientApi(publishableKey).post("/auth/login?_is_native=true", { email, password: STRONG_PASSWORD });
    const native = clientApi(publishableKey, { headers: { authorization: `Bearer ${login.body.sessionToken}` } });
    expect((await native.get("/client")).body.authenticated).toBe(true);
  });

  it("rejects malformed login bodies with 400, never 500", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey);
    for (const body of [{}, { email: "", password: "x" }, { email: "a@b.co", password: "" }, { email: 5, password: [] }, { email: "a@b.co", password: "x", extra: 1 }]) {
      const res = await client.post("/auth/login", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("invalid_request");
    }
  });
});

describe("browser safety", () => {
  it("refuses state-changing calls from a foreign Origin and answers CORS only for allowed ones", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.put("/allowed-origins", { origins: ["https://app.example.com"] });
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const evil = await clientApi(publishableKey, { headers: { origin: "https://evil.example" } }).post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(evil.status).toBe(403);
    expect(evil.body.code).toBe("origin_not_allowed");
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();

    const good = await clientApi(publishableKey, { headers: { origin: "https://app.example.com" } }).post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(good.status).toBe(200);
    expect(good.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(good.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("answers preflight only for allowed origins", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.put("/allowed-origins", { origins: ["https://app.example.com"] });
    const { call } = await import("../helpers/api");
    const ok = await call("OPTIONS", "/_svc/auth/login", { headers: { origin: "https://app.example.com", "x-api-key": publishableKey } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    const no = await call("OPTIONS", "/_svc/auth/login", { headers: { origin: "https://evil.example", "x-api-key": publishableKey } });
    expect(no.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("marks cookies Secure on https requests", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const res = await clientApi(publishableKey, { headers: { "x-forwarded-proto": "https" } }).post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(res.headers.getSetCookie().every((c) => /;\s*Secure/i.test(c))).toBe(true);
  });
});

describe("rate limits", () => {
  it("limits login to 5 per 10 s per IP with 429 rate_limited and Retry-After", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey, { headers: { "x-forwarded-for": "203.0.113.7" } });
    const statuses: number[] = [];
    let limited: any;
    for (let i = 0; i < 7; i++) {
      const res = await client.post("/auth/login", { email: uniqueEmail(), password: "whatever-123" });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(limited.body.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another IP is not affected.
    const other = clientApi(publishableKey, { headers: { "x-forwarded-for": "198.51.100.9" } });
    expect((await other.post("/auth/login", { email: uniqueEmail(), password: "whatever-123" })).status).toBe(401);
  });

  it("keys IPv6 callers by their /64", async () => {
    const { publishableKey } = await newEnvironment();
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const client = clientApi(publishableKey, { headers: { "x-forwarded-for": `2001:db8:1:2::${i.toString(16)}` } });
      statuses.push((await client.post("/auth/login", { email: uniqueEmail(), password: "whatever-123" })).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it("throttles an account after many consecutive failures without locking it for good", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { enabled: true, signIn: { limit: 1000, windowSeconds: 10 }, failedSignInThreshold: 5 } });
    const email = uniqueEmail();
    await api.post("/users", { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    for (let i = 0; i < 5; i++) expect((await client.post("/auth/login", { email, password: "wrong-wrong-1" })).status).toBe(401);
    const throttled = await client.post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("enumeration: the failed-sign-in throttle answers an unknown address exactly like a known one", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { signIn: { limit: 1000 }, failedSignInThreshold: 5 } });
    const known = uniqueEmail();
    await api.post("/users", { email: known, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const answers = [];
    for (const email of [known, uniqueEmail()]) {
      for (let i = 0; i < 5; i++) expectProblem(await client.post("/auth/login", { email, password: "wrong-wrong-1" }), 401, "invalid_credentials");
      const throttled = await client.post("/auth/login", { email, password: "wrong-wrong-1" });
      expectProblem(throttled, 429, "rate_limited");
      answers.push({ ...throttled.body, requestId: undefined, retryAfter: throttled.headers.get("retry-after") });
    }
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe("session lifetime", () => {
  it("an idle session past the inactivity timeout is signed out; an active one is not", async () => {
    const { publishableKey, api } = await newEnvironment();
    const { client, session } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    await api.patch("/environment", { sessions: { inactivitySeconds: 300 } });
    expect((await client.get("/client")).body.authenticated).toBe(true);
    const { getDb } = await import("@/db/client");
    const { sessions } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    await getDb().update(sessions).set({ lastActiveAt: new Date(Date.now() - 600_000) }).where(eq(sessions.id, session.session.id));
    expect((await client.get("/client")).body.authenticated).toBe(false);
    await api.patch("/environment", { sessions: { inactivitySeconds: null } });
    expect((await client.get("/client")).body.authenticated).toBe(true);
  });
});
