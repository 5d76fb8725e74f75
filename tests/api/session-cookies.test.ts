import { parseSetCookie } from "cookie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/api";
import { clientApi, type ClientApi } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/** Issue 7, item 7: what the session cookie says about itself, and when it counts. */
async function signedIn(options: { headers?: Record<string, string> } = {}) {
  const env = await newEnvironment();
  const email = uniqueEmail();
  await env.api.post("/users", { email, password: STRONG_PASSWORD });
  const client = clientApi(env.publishableKey, options);
  const login = await client.post("/auth/login", { email, password: STRONG_PASSWORD });
  expect(login.status, login.text).toBe(200);
  const token = client.jar.get("__gh_session") ?? "";
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { env, client, login, token, email };
}

const probe = (publishableKey: string, cookie: string) =>
  call("GET", "/_svc/client", { headers: { "x-api-key": publishableKey, cookie } });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("session cookie attributes", () => {
  it("regression: is Secure whenever PUBLIC_URL is https, even when no proxy says the request was https", async () => {
    vi.stubEnv("PUBLIC_URL", "https://gatehouse.example.test");
    const { login } = await signedIn();
    const cookies = login.headers.getSetCookie();
    expect(cookies.map((cookie) => parseSetCookie(cookie).name)).toEqual(["__gh_session", "__Host-gh_session_bind", "__gh_session_hint"]);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*Secure(;|$)/i);
  });

  it("is host-only (no Domain), Path=/, SameSite=Lax, and HttpOnly for the token", async () => {
    const { login } = await signedIn();
    const [session, hint] = login.headers.getSetCookie().map((header) => ({ header, parsed: parseSetCookie(header) }));
    for (const cookie of [session, hint]) {
      expect(cookie?.header).not.toMatch(/domain=/i);
      expect(cookie?.parsed.domain).toBeUndefined();
      expect(cookie?.parsed.path).toBe("/");
      expect(String(cookie?.parsed.sameSite).toLowerCase()).toBe("lax");
    }
    expect(session?.parsed.name).toBe("__gh_session");
    expect(session?.parsed.httpOnly).toBe(true);
    expect(hint?.parsed.name).toBe("__gh_session_hint");
    expect(hint?.parsed.httpOnly ?? false).toBe(false);
  });
});

describe("two session cookies", () => {
  it("regression: over plain http a request carrying two __gh_session cookies has no session, whichever comes first", async () => {
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    const victim = await signedIn();
    // The attacker's own account in the same environment: its cookie, planted beside the victim's, would sign the victim in as the attacker.
    const attackerEmail = uniqueEmail("attacker");
    await victim.env.api.post("/users", { email: attackerEmail, password: STRONG_PASSWORD });
    const attacker = clientApi(victim.env.publishableKey);
    expect((await attacker.post("/auth/login", { email: attackerEmail, password: STRONG_PASSWORD })).status).toBe(200);
    const planted = { token: attacker.jar.get("__gh_session") ?? "" };
    expect((await probe(victim.env.publishableKey, `__gh_session=${victim.token}`)).body.authenticated).toBe(true);
    expect((await probe(victim.env.publishableKey, `__gh_session=${planted.token}`)).body.authenticated).toBe(true);
    for (const cookie of [
      `__gh_session=${victim.token}; __gh_session=${planted.token}`,
      `__gh_session=${planted.token}; __gh_session=${victim.token}`,
      `__gh_session=${victim.token}; __gh_session_hint=1; __gh_session=${victim.token}`,
      `__gh_session=${victim.token}; __gh_session=`,
    ]) {
      expect((await probe(victim.env.publishableKey, cookie)).body.authenticated, cookie).toBe(false);
      const me = await call("GET", "/_svc/users/me", { headers: { "x-api-key": victim.env.publishableKey, cookie } });
      expect(me.status, cookie).toBe(401);
    }
    // The hint cookie is another name and does not count as a second session cookie.
    expect((await probe(victim.env.publishableKey, `__gh_session_hint=1; __gh_session=${victim.token}`)).body.authenticated).toBe(true);
  });
});

describe("logout through an environment that does not own the cookie", () => {
  const logout = (publishableKey: string, cookie?: string) =>
    call("POST", "/_svc/auth/logout", { headers: { "x-api-key": publishableKey, ...(cookie ? { cookie } : {}) } });

  it("regression: leaves another environment's session cookie alone and its session alive", async () => {
    const owner = await signedIn();
    const other = await newEnvironment();
    const cookie = `__gh_session=${owner.token}`;
    const res = await logout(other.publishableKey, cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await probe(owner.env.publishableKey, cookie)).body.authenticated).toBe(true);
  });

  it("clears the cookie when it is this environment's, and when there is no session at all", async () => {
    const owner = await signedIn();
    const cookie = `__gh_session=${owner.token}`;
    const own = await logout(owner.env.publishableKey, cookie);
    expect(own.headers.getSetCookie().map((header) => parseSetCookie(header)).map((c) => [c.name, c.value ?? "", c.maxAge])).toEqual([
      ["__gh_session", "", 0],
      ["__gh_session_hint", "", 0],
    ]);
    expect((await probe(owner.env.publishableKey, cookie)).body.authenticated).toBe(false);
    // Signing out twice, or with no cookie, still clears.
    expect((await logout(owner.env.publishableKey, cookie)).headers.getSetCookie()).toHaveLength(2);
    expect((await logout(owner.env.publishableKey)).headers.getSetCookie()).toHaveLength(2);
  });
});

describe("on https the session cookie is bound to a __Host- companion", () => {
  beforeEach(() => {
    vi.stubEnv("PUBLIC_URL", "https://gatehouse.example.test");
  });

  const companionOf = (client: ClientApi) => client.jar.get("__Host-gh_session_bind") ?? "";
  const me = (publishableKey: string, cookie: string) => call("GET", "/_svc/users/me", { headers: { "x-api-key": publishableKey, cookie } });

  it("sign-in sets __Host-gh_session_bind beside __gh_session (HttpOnly, Secure, Path=/, no Domain, same expiry), and logout clears both", async () => {
    const { env, client, login, token } = await signedIn();
    const cookies = login.headers.getSetCookie().map((header) => ({ header, parsed: parseSetCookie(header) }));
    const session = cookies.find((cookie) => cookie.parsed.name === "__gh_session");
    const companion = cookies.find((cookie) => cookie.parsed.name === "__Host-gh_session_bind");
    expect(companion?.parsed).toMatchObject({ path: "/", secure: true, httpOnly: true });
    expect(companion?.header).not.toMatch(/domain=/i);
    expect(String(companion?.parsed.sameSite).toLowerCase()).toBe("lax");
    expect(companion?.parsed.expires).toEqual(session?.parsed.expires);
    // A keyed hash of the token, not the token, nor its plain SHA-256.
    expect(companionOf(client)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(companionOf(client)).not.toBe(token);
    expect((await client.get("/users/me")).status).toBe(200);

    const logout = await client.post("/auth/logout");
    expect(logout.status, logout.text).toBe(200);
    expect(logout.headers.getSetCookie().map((header) => parseSetCookie(header)).map((c) => [c.name, c.value ?? "", c.maxAge])).toEqual([
      ["__gh_session", "", 0],
      ["__Host-gh_session_bind", "", 0],
      ["__gh_session_hint", "", 0],
    ]);
    expect(client.jar.has("__gh_session")).toBe(false);
    expect(client.jar.has("__Host-gh_session_bind")).toBe(false);
    expect((await me(env.publishableKey, `__gh_session=${token}; __Host-gh_session_bind=${companionOf(client)}`)).status).toBe(401);
  });

  it("regression: a session cookie without its companion is no session (a sibling subdomain can plant __gh_session, not a __Host- cookie)", async () => {
    const { env, client, token } = await signedIn();
    expect((await probe(env.publishableKey, `__gh_session=${token}; __Host-gh_session_bind=${companionOf(client)}`)).body.authenticated).toBe(true);
    for (const cookie of [`__gh_session=${token}`, `__gh_session=${token}; __gh_session_hint=1`, `__gh_session=${token}; __Host-gh_session_bind=`]) {
      expect((await probe(env.publishableKey, cookie)).body.authenticated, cookie).toBe(false);
      expect((await me(env.publishableKey, cookie)).status, cookie).toBe(401);
    }
  });

  it("regression: a companion made for another token, altered, or presented twice binds nothing", async () => {
    const victim = await signedIn();
    const attackerEmail = uniqueEmail("attacker");
    await victim.env.api.post("/users", { email: attackerEmail, password: STRONG_PASSWORD });
    const attacker = clientApi(victim.env.publishableKey);
    const attackerLogin = await attacker.post("/auth/login", { email: attackerEmail, password: STRONG_PASSWORD });
    expect(attackerLogin.status).toBe(200);
    const attackerToken = attacker.jar.get("__gh_session") ?? "";
    const victimCompanion = companionOf(victim.client);
    const altered = `${victimCompanion.slice(0, -1)}${victimCompanion.endsWith("A") ? "B" : "A"}`;
    for (const cookie of [
      // The attacker's planted session cookie beside the victim's own companion.
      `__gh_session=${attackerToken}; __Host-gh_session_bind=${victimCompanion}`,
      `__gh_session=${victim.token}; __Host-gh_session_bind=${altered}`,
      `__gh_session=${victim.token}; __Host-gh_session_bind=${companionOf(attacker)}`,
      `__gh_session=${victim.token}; __Host-gh_session_bind=${victimCompanion}; __Host-gh_session_bind=${victimCompanion}`,
    ]) {
      expect((await probe(victim.env.publishableKey, cookie)).body.authenticated, cookie).toBe(false);
      expect((await me(victim.env.publishableKey, cookie)).status, cookie).toBe(401);
    }
    // Each with its own companion works.
    const own = await me(victim.env.publishableKey, `__Host-gh_session_bind=${companionOf(attacker)}; __gh_session=${attackerToken}`);
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(attackerLogin.body.user.id);
  });

  it("regression (review #5): two __gh_session cookies signed the user out (a sibling subdomain plants one); now the one its companion names counts, whichever comes first", async () => {
    const victim = await signedIn();
    const attackerEmail = uniqueEmail("attacker");
    await victim.env.api.post("/users", { email: attackerEmail, password: STRONG_PASSWORD });
    const attacker = clientApi(victim.env.publishableKey);
    expect((await attacker.post("/auth/login", { email: attackerEmail, password: STRONG_PASSWORD })).status).toBe(200);
    const planted = attacker.jar.get("__gh_session") ?? "";
    const companion = `__Host-gh_session_bind=${companionOf(victim.client)}`;
    for (const cookie of [
      `__gh_session=${planted}; __gh_session=${victim.token}; ${companion}`,
      `${companion}; __gh_session=${victim.token}; __gh_session=${planted}`,
      `__gh_session=${victim.token}; __gh_session=; ${companion}`,
      `__gh_session=${victim.token}; __gh_session=${victim.token}; ${companion}`,
    ]) {
      expect((await probe(victim.env.publishableKey, cookie)).body.authenticated, cookie).toBe(true);
      const res = await me(victim.env.publishableKey, cookie);
      expect(res.status, cookie).toBe(200);
      expect(res.body.email, cookie).toBe(victim.email);
    }
    // No cookie the companion names, or the companion twice: no session, as before.
    for (const cookie of [
      `__gh_session=${planted}; __gh_session=${planted}; ${companion}`,
      `__gh_session=${victim.token}; __gh_session=${planted}; ${companion}; ${companion}`,
      `__gh_session=${victim.token}; __gh_session=${planted}`,
    ]) {
      expect((await probe(victim.env.publishableKey, cookie)).body.authenticated, cookie).toBe(false);
    }
  });

  it("a native app's bearer token needs no companion", async () => {
    const { env } = await signedIn();
    const email = uniqueEmail("native");
    await env.api.post("/users", { email, password: STRONG_PASSWORD });
    const login = await clientApi(env.publishableKey).post("/auth/login?_is_native=true", { email, password: STRONG_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const res = await call("GET", "/_svc/users/me", { headers: { "x-api-key": env.publishableKey, authorization: `Bearer ${login.body.sessionToken}` } });
    expect(res.status, res.text).toBe(200);
  });
});

describe("on plain http (development) there is no companion", () => {
  it("sign-in sets no __Host- cookie and the session cookie alone is the session", async () => {
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    const { env, login, token } = await signedIn();
    expect(login.headers.getSetCookie().map((header) => parseSetCookie(header).name)).toEqual(["__gh_session", "__gh_session_hint"]);
    expect((await probe(env.publishableKey, `__gh_session=${token}`)).body.authenticated).toBe(true);
  });
});
