import { and, eq } from "drizzle-orm";
import { randomNonce, randomPKCECodeVerifier, randomState } from "openid-client";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, oauthProviders, userIdentities } from "@/db/schema";
import { unseal } from "@/lib/crypto/secret-box";
import { frontendHostOrigin } from "@/lib/environments/environment-links";
import { authorizationUrl, exchangeCallback, loadEnabledProvider } from "@/lib/oauth/provider-client";
import { call, expectProblem, problemFields } from "../helpers/api";
import { createUser, newEnvironment, uniqueEmail } from "../helpers/fixtures";
import { connectOidcProvider } from "../helpers/oidc-provider";

type Environment = Awaited<ReturnType<typeof newEnvironment>>;

const SECRET = "s3cr3t-value-that-must-never-come-back";

async function createProvider(env: Environment, body: Record<string, unknown>) {
  const res = await env.api.post("/oauth-providers", { clientId: "client-1", clientSecret: SECRET, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function listForClients(env: Environment, headers: Record<string, string> = {}) {
  return call("GET", "/_svc/auth/oauth2/providers", { headers: { "x-api-key": env.publishableKey, ...headers } });
}

const previousMode = process.env.GATEHOUSE_MODE;
afterEach(() => {
  if (previousMode === undefined) delete process.env.GATEHOUSE_MODE;
  else process.env.GATEHOUSE_MODE = previousMode;
});

describe("OAuth providers CRUD (Server API)", () => {
  it("creates an OIDC provider: secret sealed at rest, never returned, callback URL on the frontend host", async () => {
    const env = await newEnvironment();
    const created = await createProvider(env, { id: "corp-sso", type: "oidc", issuer: "https://sso.corp.example", name: "Corp SSO" });
    expect(created).toEqual({
      id: "corp-sso",
      type: "oidc",
      name: "Corp SSO",
      clientId: "client-1",
      clientSecretSet: true,
      issuer: "https://sso.corp.example",
      scopes: ["openid", "email", "profile"],
      enabled: true,
      position: 0,
      callbackUrl: `${frontendHostOrigin(env.frontendHost)}/_svc/auth/oauth2/corp-sso/callback`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);

    const [row] = await getDb().select().from(oauthProviders).where(eq(oauthProviders.environmentId, env.environmentId));
    expect(row?.clientSecretSealed).not.toContain(SECRET);
    expect(await unseal(row?.clientSecretSealed ?? "")).toBe(SECRET);

    const read = await env.api.get("/oauth-providers/corp-sso");
    expect(read.body).toEqual(created);
    expect(read.text).not.toContain(SECRET);
    expect(read.text).not.toContain(row?.clientSecretSealed);
  });

  it("presets know their issuer, name and scopes", async () => {
    const env = await newEnvironment();
    expect(await createProvider(env, { id: "google", type: "google" })).toMatchObject({ name: "Google", issuer: "https://accounts.google.com", scopes: ["openid", "email", "profile"] });
    expect(await createProvider(env, { id: "github", type: "github" })).toMatchObject({ name: "GitHub", issuer: "https://github.com", scopes: ["read:user", "user:email"] });
    expect(await createProvider(env, { id: "microsoft", type: "microsoft" })).toMatchObject({ issuer: "https://login.microsoftonline.com/common/v2.0" });
    expect(await createProvider(env, { id: "apple", type: "apple" })).toMatchObject({ name: "Apple", issuer: "https://appleid.apple.com" });
    expect(await createProvider(env, { id: "gitlab", type: "gitlab", issuer: "https://gitlab.acme.example", scopes: ["openid", "email"] })).toMatchObject({
      issuer: "https://gitlab.acme.example",
      scopes: ["openid", "email"],
    });
  });

  it("review finding: account ids are unique per issuer only — the issuer cannot change while identities are linked (409), and deleting the provider removes its identities", async () => {
    const env = await newEnvironment();
    await createProvider(env, { id: "corp", type: "oidc", issuer: "https://idp.example" });
    const user = await createUser(env.api, { email: uniqueEmail("linked") });
    await getDb().insert(userIdentities).values({ environmentId: env.environmentId, userId: user.id, providerId: "corp", subject: "42" });

    expectProblem(await env.api.patch("/oauth-providers/corp", { issuer: "https://other-idp.example" }), 409, "oauth_provider_in_use");
    expect((await env.api.patch("/oauth-providers/corp", { name: "Corp SSO", issuer: "https://idp.example" })).status).toBe(200);

    expect((await env.api.delete("/oauth-providers/corp")).status).toBe(204);
    expect(await getDb().select().from(userIdentities).where(eq(userIdentities.userId, user.id))).toHaveLength(0);
    await createProvider(env, { id: "corp", type: "oidc", issuer: "https://other-idp.example" });
    expect((await env.api.patch("/oauth-providers/corp", { issuer: "https://idp.example" })).status).toBe(200);
  });

  it("lists in button order (position, then id), updates, and deletes", async () => {
    const env = await newEnvironment();
    await createProvider(env, { id: "zeta", type: "google", position: 1 });
    await createProvider(env, { id: "alpha", type: "github", position: 1 });
    await createProvider(env, { id: "first", type: "oidc", issuer: "https://idp.example", position: 0 });
    const list = await env.api.get("/oauth-providers");
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual(["first", "alpha", "zeta"]);
    expect(list.text).not.toContain(SECRET);

    const before = (await getDb().select().from(oauthProviders).where(and(eq(oauthProviders.environmentId, env.environmentId), eq(oauthProviders.id, "first"))))[0];
    const updated = await env.api.patch("/oauth-providers/first", { name: "First IdP", clientSecret: "new-secret", scopes: ["openid"], enabled: false, position: 5 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: "first", name: "First IdP", enabled: false, scopes: ["openid"], position: 5, clientSecretSet: true });
    expect(updated.text).not.toContain("new-secret");
    const after = (await getDb().select().from(oauthProviders).where(and(eq(oauthProviders.environmentId, env.environmentId), eq(oauthProviders.id, "first"))))[0];
    expect(await unseal(after?.clientSecretSealed ?? "")).toBe("new-secret");
    expect(after?.clientId).toBe(before?.clientId);

    const reset = await env.api.patch("/oauth-providers/first", { scopes: null });
    expect(reset.body.scopes).toEqual(["openid", "email", "profile"]);

    const removed = await env.api.delete("/oauth-providers/first");
    expect(removed.status).toBe(204);
    expectProblem(await env.api.get("/oauth-providers/first"), 404, "resource_not_found");
    expectProblem(await env.api.delete("/oauth-providers/first"), 404, "resource_not_found");

    const types = (await getDb().select({ type: events.type, data: events.data }).from(events).where(eq(events.environmentId, env.environmentId))).filter((e) =>
      e.type.startsWith("oauth_provider."),
    );
    expect(types).toEqual(
      expect.arrayContaining([
        { type: "oauth_provider.created", data: { providerId: "first", type: "oidc" } },
        { type: "oauth_provider.updated", data: { providerId: "first", fields: ["name", "clientSecret", "scopes", "enabled", "position"] } },
        { type: "oauth_provider.deleted", data: { providerId: "first" } },
      ]),
    );
    expect(JSON.stringify(types)).not.toContain("new-secret");
  });

  it("an id the environment already has: 409 oauth_provider_exists; the same id in another environment is fine", async () => {
    const env = await newEnvironment();
    await createProvider(env, { id: "google", type: "google" });
    const again = await env.api.post("/oauth-providers", { id: "google", type: "google", clientId: "x", clientSecret: "y" });
    expectProblem(again, 409, "oauth_provider_exists");
    expect(problemFields(again)).toEqual(["id"]);
    await createProvider(await newEnvironment(), { id: "google", type: "google" });
  });

  it("concurrent creates of one id: exactly one wins, the others get 409", async () => {
    const env = await newEnvironment();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => env.api.post("/oauth-providers", { id: "race", type: "google", clientId: "c", clientSecret: "s" })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expectProblem(res, 409, "oauth_provider_exists");
  });

  it("OpenID providers must ask for the openid scope (else no id_token, and every sign-in fails); duplicates are dropped", async () => {
    const env = await newEnvironment();
    const refused = await env.api.post("/oauth-providers", { id: "no-openid", type: "oidc", issuer: "https://idp.example", clientId: "c", clientSecret: "s", scopes: ["email"] });
    expectProblem(refused, 400, "invalid_request");
    expect(problemFields(refused)).toEqual(["scopes"]);
    await createProvider(env, { id: "gl", type: "gitlab", scopes: ["openid", "email", "openid"] });
    expect((await env.api.get("/oauth-providers/gl")).body.scopes).toEqual(["openid", "email"]);
    expectProblem(await env.api.patch("/oauth-providers/gl", { scopes: ["read_user"] }), 400, "invalid_request");
    expect((await createProvider(env, { id: "gh", type: "github", scopes: ["read:user"] })).scopes).toEqual(["read:user"]);
  });

  it("another environment's provider is not found, and cannot be changed or removed", async () => {
    const owner = await newEnvironment();
    const other = await newEnvironment();
    await createProvider(owner, { id: "owned", type: "google" });
    expectProblem(await other.api.get("/oauth-providers/owned"), 404, "resource_not_found");
    expectProblem(await other.api.patch("/oauth-providers/owned", { enabled: false }), 404, "resource_not_found");
    expectProblem(await other.api.delete("/oauth-providers/owned"), 404, "resource_not_found");
    expect((await other.api.get("/oauth-providers")).body.data).toEqual([]);
    expect((await owner.api.get("/oauth-providers/owned")).body.enabled).toBe(true);
  });

  describe("issuer rules (CONTRACT §5)", () => {
    it("oidc requires an issuer; google and apple refuse one", async () => {
      const env = await newEnvironment();
      for (const body of [
        { id: "no-issuer", type: "oidc" },
        { id: "google", type: "google", issuer: "https://evil.example" },
        { id: "apple", type: "apple", issuer: "https://evil.example" },
      ]) {
        const res = await env.api.post("/oauth-providers", { clientId: "c", clientSecret: "s", ...body });
        expectProblem(res, 400, "invalid_request");
        expect(problemFields(res)).toEqual(["issuer"]);
      }
      const created = await createProvider(env, { id: "ms", type: "microsoft", issuer: "https://login.microsoftonline.com/tenant-id/v2.0" });
      expectProblem(await env.api.patch("/oauth-providers/ms", { issuer: "http://evil.example" }), 400, "invalid_request");
      expect((await env.api.patch("/oauth-providers/ms", { issuer: null })).body.issuer).toBe("https://login.microsoftonline.com/common/v2.0");
      expect(created.issuer).toBe("https://login.microsoftonline.com/tenant-id/v2.0");
    });

    it("http only on a loopback host, and only outside production; never credentials, query, fragment or other schemes", async () => {
      const env = await newEnvironment();
      for (const issuer of ["http://idp.example", "http://10.0.0.1", "ftp://idp.example", "https://user:pw@idp.example", "https://idp.example/?x=1", "https://idp.example/#f", "javascript:alert(1)", "not a url", "//idp.example"]) {
        const res = await env.api.post("/oauth-providers", { id: "bad", type: "oidc", clientId: "c", clientSecret: "s", issuer });
        expectProblem(res, 400, "invalid_request");
        expect(problemFields(res), issuer).toEqual(["issuer"]);
      }
      await createProvider(env, { id: "local-1", type: "oidc", issuer: "http://127.0.0.1:4455" });
      await createProvider(env, { id: "local-2", type: "oidc", issuer: "http://localhost:4455/realms/dev" });
      await createProvider(env, { id: "local-3", type: "oidc", issuer: "http://[::1]:4455" });

      process.env.GATEHOUSE_MODE = "production";
      const refused = await env.api.post("/oauth-providers", { id: "local-4", type: "oidc", clientId: "c", clientSecret: "s", issuer: "http://127.0.0.1:4455" });
      expectProblem(refused, 400, "invalid_request");
      expect(refused.body.detail).toContain("https");
    });

    it("in production an issuer on a loopback, private, link-local or internal host is refused on create and update (SSRF)", async () => {
      const env = await newEnvironment();
      const hostile = [
        "https://127.0.0.1",
        "https://10.0.0.1",
        "https://172.16.5.4/realms/x",
        "https://192.168.1.10",
        "https://169.254.169.254",
        "https://100.64.0.1",
        "https://0.0.0.0",
        "https://[::1]",
        "https://[fd00::1]",
        "https://[fe80::1]",
        "https://[::ffff:127.0.0.1]",
        "https://2130706433",
        "https://localhost",
        "https://idp.localhost",
        "https://metadata.google.internal",
      ];
      await createProvider(env, { id: "corp", type: "oidc", issuer: "https://idp.example" });
      process.env.GATEHOUSE_MODE = "production";
      for (const issuer of hostile) {
        const created = await env.api.post("/oauth-providers", { id: "internal", type: "oidc", clientId: "c", clientSecret: "s", issuer });
        expectProblem(created, 400, "invalid_request");
        expect(problemFields(created), issuer).toEqual(["issuer"]);
        expect(created.body.detail, issuer).toMatch(/non-public address|local or internal host/);
        const updated = await env.api.patch("/oauth-providers/corp", { issuer });
        expectProblem(updated, 400, "invalid_request");
        expect(problemFields(updated), issuer).toEqual(["issuer"]);
      }
      const github = await env.api.post("/oauth-providers", { id: "ghe", type: "github", clientId: "c", clientSecret: "s", issuer: "https://10.1.2.3" });
      expect(problemFields(github)).toEqual(["issuer"]);
      expect((await env.api.get("/oauth-providers/corp")).body.issuer).toBe("https://idp.example");
      // A public name (here one that does not resolve yet) is kept; each request is checked again when it is made.
      await createProvider(env, { id: "public", type: "oidc", issuer: "https://sso.corp.example" });
      // The operator's own network, named in OAUTH_PRIVATE_HOSTS.
      process.env.OAUTH_PRIVATE_HOSTS = "10.0.0.5,sso.corp.internal";
      try {
        await createProvider(env, { id: "keycloak", type: "oidc", issuer: "https://10.0.0.5/realms/corp" });
        expect((await env.api.patch("/oauth-providers/keycloak", { issuer: "https://sso.corp.internal/realms/corp" })).status).toBe(200);
        expectProblem(await env.api.patch("/oauth-providers/keycloak", { issuer: "https://10.0.0.6/realms/corp" }), 400, "invalid_request");
      } finally {
        delete process.env.OAUTH_PRIVATE_HOSTS;
      }

      // Outside production private issuers stay allowed: operators test against their own network.
      process.env.GATEHOUSE_MODE = "development";
      await createProvider(env, { id: "lan", type: "oidc", issuer: "https://10.0.0.1" });
    });
  });

  it("hostile and malformed input: 400 problem+json, never a 500", async () => {
    const env = await newEnvironment();
    const base = { id: "good-id", type: "oidc", clientId: "c", clientSecret: "s", issuer: "https://idp.example" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, id: "A" }, "id"],
      [{ ...base, id: "Upper" }, "id"],
      [{ ...base, id: "../x" }, "id"],
      [{ ...base, id: "x".repeat(33) }, "id"],
      [{ ...base, id: "providers" }, "id"],
      [{ ...base, id: "link" }, "id"],
      [{ ...base, id: "reverify" }, "id"],
      [{ ...base, type: "facebook" }, "type"],
      [{ ...base, clientSecret: "" }, "clientSecret"],
      [{ ...base, clientId: 5 }, "clientId"],
      [{ ...base, scopes: ["open id"] }, "scopes.0"],
      [{ ...base, scopes: 'openid"' }, "scopes"],
      [{ ...base, enabled: "yes" }, "enabled"],
      [{ ...base, clientSecretSet: true }, ""],
      [{ ...base, position: -1 }, "position"],
    ];
    for (const [body, field] of cases) {
      const res = await env.api.post("/oauth-providers", body);
      expectProblem(res, 400, "invalid_request");
      if (field) expect(problemFields(res), JSON.stringify(body)).toContain(field);
    }
    expectProblem(await env.api.raw("POST", "/oauth-providers", { rawBody: "{not json", headers: { "content-type": "application/json" } }), 400, "invalid_request");
    expectProblem(await env.api.get("/oauth-providers/NOT_A_SLUG"), 400, "invalid_request");
    expectProblem(await env.api.patch("/oauth-providers/good-id", { type: "google" }), 400, "invalid_request");
    expectProblem(await env.api.patch("/oauth-providers/good-id", { id: "renamed" }), 400, "invalid_request");
    expect((await env.api.get("/oauth-providers")).body.data).toEqual([]);
  });

  it("requires a valid secret key; other methods answer 405", async () => {
    const env = await newEnvironment();
    expectProblem(await call("GET", "/api/server/v1/oauth-providers"), 401, "unauthorized");
    expectProblem(await call("POST", "/api/server/v1/oauth-providers", { body: {}, headers: { authorization: "Bearer sk_test_nope" } }), 401, "unauthorized");
    expectProblem(await call("GET", "/api/server/v1/oauth-providers/google", { headers: { "x-api-key": env.publishableKey } }), 401, "unauthorized");
    const put = await env.api.put("/oauth-providers", {});
    expectProblem(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toContain("GET");
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await call("GET", "/api/openapi.json")).body;
    expect(Object.keys(doc.paths["/api/server/v1/oauth-providers"])).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/api/server/v1/oauth-providers/{providerId}"])).toEqual(expect.arrayContaining(["get", "patch", "delete"]));
    expect(Object.keys(doc.paths["/_svc/auth/oauth2/providers"])).toEqual(["get"]);
  });
});

describe("GET /_svc/auth/oauth2/providers (Client API)", () => {
  it("lists the enabled providers in order with id, name, type and icon: no secrets, no client ids, no issuers", async () => {
    const env = await newEnvironment();
    await createProvider(env, { id: "github", type: "github", position: 2, clientId: "gh-client-id" });
    await createProvider(env, { id: "google", type: "google", position: 1, name: "Sign in with Google" });
    await createProvider(env, { id: "corp", type: "oidc", issuer: "https://sso.corp.example", position: 3 });
    await createProvider(env, { id: "hidden", type: "gitlab", enabled: false });
    const res = await listForClients(env);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: "google", name: "Sign in with Google", type: "google", icon: "google", authorizeUrl: "/_svc/auth/oauth2/google/authorize" },
        { id: "github", name: "GitHub", type: "github", icon: "github", authorizeUrl: "/_svc/auth/oauth2/github/authorize" },
        { id: "corp", name: "corp", type: "oidc", icon: "oidc", authorizeUrl: "/_svc/auth/oauth2/corp/authorize" },
      ],
    });
    for (const hidden of [SECRET, "gh-client-id", "sso.corp.example", "client-1"]) expect(res.text).not.toContain(hidden);
  });

  it("shows only the caller's environment, by key or by frontend host; an unknown environment is 401", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    await createProvider(other, { id: "google", type: "google" });
    expect((await listForClients(env)).body.data).toEqual([]);
    const byHost = await call("GET", "/_svc/auth/oauth2/providers", { headers: { host: other.frontendHost } });
    expect(byHost.body.data.map((p: { id: string }) => p.id)).toEqual(["google"]);
    expectProblem(await call("GET", "/_svc/auth/oauth2/providers", { headers: { "x-api-key": "pk_test_unknownunknownunknown" } }), 401, "environment_not_found");
    expectProblem(await call("POST", "/_svc/auth/oauth2/providers", { headers: { "x-api-key": env.publishableKey }, body: {} }), 405, "method_not_allowed");
  });
});

describe("a provider added through the Server API works against a real OpenID provider", () => {
  it("connectOidcProvider: the stored provider authorizes and exchanges with the loopback provider", async () => {
    const env = await newEnvironment();
    const idp = await connectOidcProvider(env);
    try {
      const provider = await loadEnabledProvider(getDb(), { id: env.environmentId }, idp.providerId);
      if (!provider) throw new Error("not loaded");
      const stored = (await env.api.get(`/oauth-providers/${idp.providerId}`)).body;
      const flow = { redirectUri: stored.callbackUrl, state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() };
      const currentUrl = await idp.signIn(await authorizationUrl(provider, flow), idp.accounts.verified.sub);
      expect(`${currentUrl.origin}${currentUrl.pathname}`).toBe(stored.callbackUrl);
      expect(await exchangeCallback(provider, { ...flow, currentUrl })).toMatchObject({ subject: idp.accounts.verified.sub, emailVerified: true });

      expect((await env.api.patch(`/oauth-providers/${idp.providerId}`, { enabled: false })).status).toBe(200);
      expect(await loadEnabledProvider(getDb(), { id: env.environmentId }, idp.providerId)).toBeNull();
    } finally {
      await idp.close();
    }
  });
});
